/* plot_layout.c - axis ranges and the key's corner (see plot_layout.h). */
#include "report/plot_layout.h"

#include <math.h>
#include <string.h>

/* ---- ranges ------------------------------------------------------------------ */

static const double steps125[] = { 1, 2, 5, 10 };

double layout_nice_up(double v)
{
	double p = pow(10, floor(log10(v)));

	for (size_t i = 0; i < 4; i++)
		if (steps125[i] * p >= v * (1 - 1e-9))
			return steps125[i] * p;
	return 10 * p;
}

double layout_nice_down(double v)
{
	double p = pow(10, floor(log10(v)));

	for (size_t i = 3; i-- > 0;)
		if (steps125[i] * p <= v * (1 + 1e-9))
			return steps125[i] * p;
	return p;
}

/* A step of 1, 2 or 5 times a power of ten that cuts @span (> 0) into 4
 * to 10 parts: p, p/2 or p/5 for the power of ten p at or below it. */
static double nice_step(double span)
{
	double p = pow(10, floor(log10(span)));

	for (size_t i = 0; i < 2; i++)
		if (span / (p / steps125[i]) >= 4 * (1 - 1e-9))
			return p / steps125[i];
	return p / 5;
}

double layout_round_up(double max)
{
	double step;

	if (!(max > 0) || !isfinite(max))
		return 1;
	step = nice_step(max);
	return ceil(max / step * (1 - 1e-9)) * step;
}

struct layout_axis layout_log_axis(double min, double max)
{
	struct layout_axis a = { layout_nice_down(min), layout_nice_up(max), true };
	double step = max > min ? nice_step(max - min) : 0;

	if (max < 10 * min && step > 0 && floor(min / step) > 0) {	/* a narrow range */
		a.lo = floor(min / step * (1 + 1e-9)) * step;
		a.hi = ceil(max * 1.02 / step) * step;	/* 2% above: off the frame */
	}
	if (a.hi <= a.lo * (1 + 1e-9)) {
		a.lo = layout_nice_down(a.lo * 0.99);
		a.hi = layout_nice_up(a.hi * 1.01);
	}
	return a;
}

size_t layout_log_tics(const struct layout_axis *a, double *tics, size_t max)
{
	double r = a->hi / a->lo, step = a->hi - a->lo, v;
	size_t n = 0;

	if (!a->log || !(a->lo > 0) || !(r <= 1000.001) || !(r > 1) || !isfinite(r))
		return 0;
	if (r < 10)
		step = nice_step(step);
	v = r < 10 ? ceil(a->lo / step * (1 - 1e-9)) * step : layout_nice_up(a->lo);
	for (size_t k = 0; k < 64 && n < max && v <= a->hi * (1 + 1e-9); k++) {
		if (n == 0 || log(v / tics[n - 1]) >= 0.08 * log(r))
			tics[n++] = v;
		v = r < 10 ? v + step : layout_nice_up(v * 1.5);
	}
	return n;
}

/* ---- the plot area ---------------------------------------------------------- */

void layout_init(struct layout *l, struct layout_axis x, struct layout_axis y)
{
	memset(l, 0, sizeof(*l));
	l->x = x;
	l->y = y;
}

/* @v on axis @a as a fraction of the axis (NaN when it cannot be drawn). */
static double frac(const struct layout_axis *a, double v)
{
	if (!isfinite(v) || (a->log && v <= 0))
		return NAN;
	if (a->hi <= a->lo)
		return 0.5;
	if (a->log)
		return (log(v) - log(a->lo)) / (log(a->hi) - log(a->lo));
	return (v - a->lo) / (a->hi - a->lo);
}

static void mark(struct layout *l, double fx, double fy, bool fill)
{
	int cx, cy;

	if (fx < -1e-9 || fx > 1 + 1e-9 || fy < -1e-9 || fy > 1 + 1e-9)
		return;
	cx = (int)fmin(LAYOUT_GX - 1, fmax(0, floor(fx * LAYOUT_GX)));
	cy = (int)fmin(LAYOUT_GY - 1, fmax(0, floor(fy * LAYOUT_GY)));
	for (int r = fill ? 0 : cy; r <= cy; r++)
		l->cover[r][cx] = true;
}

/* The segment from (ax, ay) to (bx, by), fractions of the axes, sampled
 * twice per cell it crosses. */
static void segment(struct layout *l, double ax, double ay, double bx, double by, bool fill)
{
	double n = ceil(2 * fmax(fabs(bx - ax) * LAYOUT_GX, fabs(by - ay) * LAYOUT_GY)) + 1;

	if (n > 4 * (LAYOUT_GX + LAYOUT_GY))
		n = 4 * (LAYOUT_GX + LAYOUT_GY);
	for (double s = 0; s <= n; s++)
		mark(l, ax + (bx - ax) * s / n, ay + (by - ay) * s / n, fill);
}

void layout_line(struct layout *l, const double *x, const double *y, size_t n, bool fill)
{
	double px = NAN, py = NAN;

	for (size_t i = 0; i < n; i++) {
		double fx = frac(&l->x, x[i]), fy = frac(&l->y, y[i]);

		if (!isfinite(fx) || !isfinite(fy))
			continue;
		if (isfinite(px))
			segment(l, px, py, fx, fy, fill);
		else
			mark(l, fx, fy, fill);
		px = fx;
		py = fy;
	}
}

/* ---- the key ------------------------------------------------------------------ */

/* Any covered cell in columns [c0, c1) and rows [r0, r1)? */
static bool taken(const struct layout *l, int c0, int c1, int r0, int r1)
{
	for (int r = r0; r < r1; r++)
		for (int c = c0; c < c1; c++)
			if (l->cover[r][c])
				return true;
	return false;
}

/* The height of the data in columns [c0, c1): a fraction of the area. */
static double data_top(const struct layout *l, int c0, int c1)
{
	for (int r = LAYOUT_GY; r-- > 0;)
		if (taken(l, c0, c1, r, r + 1))
			return (r + 1.0) / LAYOUT_GY;
	return 0;
}

/* The y range's new top when the data, now @top high, must end at @room. */
static double raise_top(const struct layout_axis *y, double top, double room)
{
	if (y->log)
		return exp(log(y->lo) + (log(y->hi) - log(y->lo)) * top / room);
	return y->lo + (y->hi - y->lo) * top / room;
}

struct layout_place layout_key_place(const struct layout *l, const struct layout_key *key)
{
	size_t cols = key->cols ? key->cols : 1, rows = (key->entries + cols - 1) / cols;
	double w_px = fmax((double)cols * ((double)key->title_chars + 7),
			   (double)key->head_chars + 2) * LAYOUT_CHAR_PX + 10;
	double h_px = (double)(rows + key->title_rows) * LAYOUT_ROW_PX + 6;
	int wc = (int)ceil(w_px / LAYOUT_AREA_W_PX * LAYOUT_GX) + 2;
	int hc = (int)ceil(h_px / LAYOUT_AREA_H_PX * LAYOUT_GY) + 2;
	struct layout_place p = { .corner = LAYOUT_OUTSIDE, .y_hi = l->y.hi };
	double left, right;

	if (wc > LAYOUT_GX || hc > LAYOUT_GY / 2)
		return p;
	for (int k = 0; k < 4; k++) {
		int c0 = k % 2 ? LAYOUT_GX - wc : 0, r0 = k < 2 ? LAYOUT_GY - hc : 0;

		if (!taken(l, c0, c0 + wc, r0, r0 + hc)) {
			p.corner = (enum layout_corner)k;
			return p;
		}
	}
	for (int k = 0; k <= LAYOUT_GY - hc; k++) {
		int r0 = k == 0 ? LAYOUT_GY - hc : k == 1 ? 0 : LAYOUT_GY - hc - k + 1;

		for (int c0 = 1; c0 + wc < LAYOUT_GX; c0++)
			if (!taken(l, c0, c0 + wc, r0, r0 + hc)) {
				p.corner = LAYOUT_AT;
				p.at_x = (c0 + 1.0) / LAYOUT_GX;
				p.at_y = (r0 + hc - 1.0) / LAYOUT_GY;
				return p;
			}
	}
	left = data_top(l, 0, wc);
	right = data_top(l, LAYOUT_GX - wc, LAYOUT_GX);
	p.corner = right < left ? LAYOUT_TOP_RIGHT : LAYOUT_TOP_LEFT;
	p.y_hi = raise_top(&l->y, fmin(left, right), 1 - (double)hc / LAYOUT_GY);
	return p;
}
