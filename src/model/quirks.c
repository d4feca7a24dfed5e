/* quirks.c - the driver quirk table (model/quirks.h, docs/quirks.md).
 *
 * One row per driver and one function per driver for rx-usecs, each
 * citing where its rule is read.  Sources, as read for this table:
 *
 *   e1000   drivers/net/ethernet/intel/e1000/e1000_ethtool.c
 *           e1000_set_coalesce(): 0 off, 1/3 dynamic, 4 simplified,
 *           10..10000 us -> adapter->itr = 1000000 / rx-usecs; others -EINVAL
 *           (src/core/itr.c itr_from_ethtool_rx_usecs() holds the rule).
 *   ena     amzn-drivers kernel/linux/common/ena_com/ena_com.c
 *           ena_com_update_nonadaptive_moderation_interval(): interval =
 *           rx-usecs / intr_delay_resolution (the resolution is the
 *           device's, ENA_ADMIN_INTERRUPT_MODERATION), a 15-bit field
 *           (ENA_ETH_IO_INTR_REG_RX_INTR_DELAY_MASK); ena_ethtool.c
 *           supported_coalesce_params = USECS | USE_ADAPTIVE_RX (no rx-frames).
 *           What the device then does is not in the driver: amzn-drivers
 *           issue #290 reports 0..8 us behaving as 8 and 64 as 50 us, and
 *           nothing changing above 64.  The clamp to 8..50 below is that
 *           report, [unverified] between its measured points.
 *   ixgbevf drivers/net/ethernet/intel/ixgbevf/ethtool.c
 *           ixgbevf_set_coalesce(): > IXGBE_MAX_EITR >> 2 (1022) -EINVAL;
 *           1 = dynamic ITR (ixgbevf_set_itr() from ixgbevf_poll(), quoted
 *           in scylladb/scylladb #1974); else itr = rx-usecs << 2, and
 *           ixgbevf_write_eitr() masks it with IXGBE_MAX_EITR (0xFF8): the
 *           interval counts 2 us, an odd value is rounded down.
 *   mlx5    drivers/net/ethernet/mellanox/mlx5/core/en_ethtool.c
 *           mlx5e_ethtool_set_coalesce(): rx-usecs above MLX5E_MAX_COAL_TIME
 *           = MLX5_MAX_CQ_PERIOD (the 12-bit cq_period of mlx5_ifc_cqc_bits:
 *           4095) and rx-frames above MLX5_MAX_CQ_COUNT (16 bits: 65535) are
 *           refused; cqe-mode-rx picks MLX5_CQ_PERIOD_MODE_START_FROM_CQE
 *           or _EQE (cqe_mode_to_period_mode()).
 *   virtio-net drivers/net/virtio_net.c virtnet_coal_params_supported():
 *           without VIRTIO_NET_F_NOTF_COAL, rx-usecs/tx-usecs != 0 is
 *           -EOPNOTSUPP and rx-frames != 1 -EINVAL.  A device that offers
 *           the feature passes the values to the host: use driver = generic.
 *   per-queue values (ethtool --per-queue) need the driver's
 *           set_per_queue_coalesce: ice has it (ice_set_per_q_coalesce); e1000,
 *           ixgbevf, virtio-net (without VIRTIO_NET_F_VQ_NOTF_COAL) and ENA
 *           (amzn-drivers ena_ethtool.c) have none; for mlx5 a series adding
 *           mlx5e_set_per_queue_coalesce was posted, its mainline status not
 *           checked here: [unverified], so the table keeps it false.
 *   ice     drivers/net/ethernet/intel/ice/ice_ethtool.c
 *           ice_set_rc_coalesce(): above ICE_ITR_MAX (8160) -EINVAL;
 *           ice_print_if_odd_usecs(): "device only supports even values.
 *           Rounding down" (ICE_ITR_GRAN_US = 2); no rx-frames.
 */
#include "model/quirks.h"

#include <stdlib.h>
#include <string.h>

#include "rxlab/itr.h"

#define US 1000

static const struct quirk_driver table[] = {
	[DRIVER_GENERIC] = { "generic", "", "any value (a coalescing engine that does "
	                     "what it is asked)", "the model's own", true, true, true, true, true },
	[DRIVER_E1000] = { "e1000", "e1000", "0 (off), 1 (dynamic ITR), 3 (dynamic "
	                   "conservative), 4 (simplified) or 10..10000 us (a fixed rate of "
	                   "1000000/rx-usecs interrupts/s)",
	                   "e1000_ethtool.c e1000_set_coalesce()", false, false, false, false, true },
	[DRIVER_ENA] = { "ena", "ena", "any whole number of us; the device honours 8..50 us "
	                 "(0..8 as 8, 50 and above as 50)",
	                 "ena_com.c ena_com_update_nonadaptive_moderation_interval(), "
	                 "amzn-drivers #290", false, true, false, false, false },
	[DRIVER_IXGBEVF] = { "ixgbevf", "ixgbevf", "0 (no throttling) or 2..1022 us, odd "
	                     "values rounded down to even (1 is the dynamic ITR, which rxlab "
	                     "does not simulate)",
	                     "ixgbevf ethtool.c ixgbevf_set_coalesce(), ixgbevf_main.c "
	                     "ixgbevf_write_eitr(), scylladb #1974", false, false, false, false, true },
	[DRIVER_MLX5] = { "mlx5", "mlx5_core", "0..4095 us (MLX5_MAX_CQ_PERIOD), rx-frames "
	                  "0..65535",
	                  "en_ethtool.c mlx5e_ethtool_set_coalesce()", true, true, true, true, false },
	[DRIVER_VIRTIO_NET] = { "virtio-net", "virtio_net", "0 only, with rx-frames 1 "
	                        "(coalescing needs VIRTIO_NET_F_NOTF_COAL: then use driver = "
	                        "generic)",
	                        "virtio_net.c virtnet_coal_params_supported()", false, false,
	                        false, false, true },
	[DRIVER_ICE] = { "ice", "ice", "0..8160 us (ICE_ITR_MAX), odd values rounded down to "
	                 "even",
	                 "ice_ethtool.c ice_set_rc_coalesce(), ice_print_if_odd_usecs()", false,
	                 true, false, true, true },
};
#define N_DRIVERS (sizeof(table) / sizeof(table[0]))
_Static_assert(N_DRIVERS == DRIVER_ICE + 1, "a row per enum nic_driver");

const struct quirk_driver *quirk_driver(enum nic_driver d)
{
	return (size_t)d < N_DRIVERS ? &table[d] : &table[DRIVER_GENERIC];
}

int quirk_driver_by_ethtool(const char *ethtool_name, enum nic_driver *d)
{
	for (size_t i = 1; i < N_DRIVERS; i++)
		if (strcmp(table[i].ethtool, ethtool_name) == 0) {
			*d = (enum nic_driver)i;
			return 0;
		}
	*d = DRIVER_GENERIC;
	return -1;
}

/* ---- rx-usecs, one function per driver; @us is whole microseconds ---- */

static enum quirk_outcome as(enum quirk_outcome o, int64_t ns, int64_t *out, const char **why,
                             const char *w)
{
	*out = ns;
	*why = w;
	return o;
}

/* e1000_set_coalesce(): itr_from_ethtool_rx_usecs() decides. */
static enum quirk_outcome e1000_usecs(int64_t us, int64_t *out, const char **why)
{
	struct itr_config ic;
	const char *err;

	if (us > ITR_MAX_USECS || itr_from_ethtool_rx_usecs((uint32_t)us, &ic, &err))
		return as(QUIRK_REFUSED, us * US, out, why, "e1000_set_coalesce() returns -EINVAL");
	if (ic.mode == ITR_OFF)
		return as(QUIRK_AS_ASKED, 0, out, why, "");
	if (ic.mode == ITR_FIXED)
		return as(QUIRK_MODE, 1000000000LL / ic.fixed_rate, out, why,
		          "e1000 sets InterruptThrottleRate = 1000000/rx-usecs interrupts/s, a "
		          "minimum gap between interrupts, not a timer (e1000_set_coalesce())");
	return as(QUIRK_MODE, 0, out, why, "e1000 rx-usecs 1, 3 and 4 select its dynamic or "
	          "simplified ITR modes (e1000_set_coalesce())");
}

/* The ENA device's pinning, amzn-drivers #290 ([unverified] between 8 and 50). */
static enum quirk_outcome ena_usecs(int64_t us, int64_t *out, const char **why)
{
	static const char pin[] = "ENA moderation resolution: the device honours 8..50 us, "
	                          "requested 0..8 us act as 8 and 50 us and above as 50 "
	                          "(amzn-drivers #290)";

	if (us < 8 || us > 50)
		return as(QUIRK_ROUNDED, (us < 8 ? 8 : 50) * US, out, why, pin);
	return as(QUIRK_AS_ASKED, us * US, out, why, "");
}

/* ixgbevf_set_coalesce() and ixgbevf_write_eitr(). */
static enum quirk_outcome ixgbevf_usecs(int64_t us, int64_t *out, const char **why)
{
	if (us > 0xFF8 >> 2)
		return as(QUIRK_REFUSED, us * US, out, why, "ixgbevf_set_coalesce() returns -EINVAL "
		          "above IXGBE_MAX_EITR >> 2 = 1022 us");
	if (us == 1)
		return as(QUIRK_MODE, 0, out, why, "ixgbevf reads rx-usecs 1 as its dynamic ITR "
		          "(ixgbevf_set_itr(), scylladb #1974)");
	if (us & 1)
		return as(QUIRK_ROUNDED, (us & ~1LL) * US, out, why, "ixgbevf EITR counts 2 us: "
		          "(rx-usecs << 2) & IXGBE_MAX_EITR (ixgbevf_write_eitr())");
	return as(QUIRK_AS_ASKED, us * US, out, why, "");
}

static enum quirk_outcome mlx5_usecs(int64_t us, int64_t *out, const char **why)
{
	if (us > 4095)
		return as(QUIRK_REFUSED, us * US, out, why, "mlx5e_ethtool_set_coalesce() refuses "
		          "rx-usecs above MLX5E_MAX_COAL_TIME = 4095 us (12-bit cq_period)");
	return as(QUIRK_AS_ASKED, us * US, out, why, "");
}

static enum quirk_outcome virtio_usecs(int64_t us, int64_t *out, const char **why)
{
	if (us != 0)
		return as(QUIRK_REFUSED, us * US, out, why, "virtnet_coal_params_supported() "
		          "returns -EOPNOTSUPP without VIRTIO_NET_F_NOTF_COAL");
	return as(QUIRK_AS_ASKED, 0, out, why, "");
}

static enum quirk_outcome ice_usecs(int64_t us, int64_t *out, const char **why)
{
	if (us > 8160)
		return as(QUIRK_REFUSED, us * US, out, why, "ice_set_rc_coalesce() returns -EINVAL "
		          "above ICE_ITR_MAX = 8160 us");
	if (us & 1)
		return as(QUIRK_ROUNDED, (us & ~1LL) * US, out, why, "ice ITR granularity is 2 us: "
		          "odd values are rounded down (ice_print_if_odd_usecs())");
	return as(QUIRK_AS_ASKED, us * US, out, why, "");
}

enum quirk_outcome quirk_rx_usecs(enum nic_driver d, int64_t asked_ns, int64_t *honoured_ns,
                                  const char **why)
{
	int64_t us = asked_ns / US;

	if (d == DRIVER_GENERIC)
		return as(QUIRK_AS_ASKED, asked_ns, honoured_ns, why, "");
	if (asked_ns < 0 || asked_ns % US)
		return as(QUIRK_REFUSED, asked_ns, honoured_ns, why,
		          "ethtool -C takes rx-usecs in whole microseconds");
	switch (d) {
	case DRIVER_GENERIC:
		break;
	case DRIVER_E1000:
		return e1000_usecs(us, honoured_ns, why);
	case DRIVER_ENA:
		return ena_usecs(us, honoured_ns, why);
	case DRIVER_IXGBEVF:
		return ixgbevf_usecs(us, honoured_ns, why);
	case DRIVER_MLX5:
		return mlx5_usecs(us, honoured_ns, why);
	case DRIVER_VIRTIO_NET:
		return virtio_usecs(us, honoured_ns, why);
	case DRIVER_ICE:
		return ice_usecs(us, honoured_ns, why);
	}
	return as(QUIRK_AS_ASKED, asked_ns, honoured_ns, why, "");
}

/* ---- rx-frames ---- */

enum quirk_outcome quirk_rx_frames(enum nic_driver d, uint32_t asked, int64_t rx_usecs_ns,
                                   uint32_t *honoured, const char **why)
{
	uint32_t timer_only = rx_usecs_ns > 0 ? 0 : 1;

	*honoured = asked;
	*why = "";
	if (d == DRIVER_GENERIC || d == DRIVER_E1000 || quirk_driver(d)->frames)
		return QUIRK_AS_ASKED;	/* e1000: the ITR ignores it (src/sim/nic.c) */
	if (d == DRIVER_VIRTIO_NET) {
		*why = "virtnet_coal_params_supported() returns -EINVAL for rx-frames other than "
		       "1 without VIRTIO_NET_F_NOTF_COAL";
		return asked == 1 ? QUIRK_AS_ASKED : QUIRK_REFUSED;
	}
	if (asked > 1) {
		*why = "the driver has no rx-frames (ETHTOOL_COALESCE_MAX_FRAMES is not in its "
		       "supported_coalesce_params): ethtool -C returns -EOPNOTSUPP";
		return QUIRK_REFUSED;
	}
	*honoured = timer_only;
	*why = "the device has no frame count: it interrupts on its timer alone, or on every "
	       "frame at rx-usecs 0";
	return asked == timer_only ? QUIRK_AS_ASKED : QUIRK_ROUNDED;
}

/* ---- tune's question ---- */

/* @s as a whole decimal number into *@v: 0, or -1. */
static int whole(const char *s, uint64_t *v)
{
	char *end;

	if (*s < '0' || *s > '9')
		return -1;
	*v = strtoull(s, &end, 10);
	return *end || *v > 100000000ULL ? -1 : 0;
}

static bool honours_flag(bool has, const char *value)
{
	return strcmp(value, "off") == 0 || has;
}

bool quirk_honours(enum nic_driver d, const char *knob, const char *value)
{
	const struct quirk_driver *q = quirk_driver(d);
	const char *why;
	uint64_t v;
	int64_t ns;
	uint32_t fr;

	if (strcmp(knob, "adaptive-rx") == 0)
		return honours_flag(q->adaptive, value);
	if (strcmp(knob, "cqe-mode-rx") == 0)
		return honours_flag(q->cqe_mode, value);
	if (whole(value, &v))
		return true;
	if (strcmp(knob, "rx-usecs") == 0)
		return quirk_rx_usecs(d, (int64_t)v * US, &ns, &why) == QUIRK_AS_ASKED;
	if (strcmp(knob, "rx-frames") == 0)
		return quirk_rx_frames(d, (uint32_t)v, US, &fr, &why) != QUIRK_REFUSED;
	return true;
}
