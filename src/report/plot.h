/* plot.h - the classic figures of a sweep, drawn with gnuplot.
 *
 * From a sweep's results (one row per point, experiment/sweep_file.h) plot_rowfile()
 * writes into a directory, for every figure, its data (data/NAME.dat, one
 * file per line group) and a gnuplot script (NAME.gp) that draws NAME.png and
 * NAME.svg, then runs gnuplot on the scripts:
 *
 *   throughput     output rate (forwarded + delivered) vs offered load,
 *                  with the ideal y = x: receive livelock
 *   interrupts     RX interrupts/s vs offered load
 *   pkts-per-irq   packets per RX interrupt vs offered load
 *   cpu-SERIES     CPU time (hardirq, softirq, system, user; stacked) vs load
 *   latency        p50, p99 and p99.9 latency vs offered load
 *   latency-cdf-SERIES  latency CDF, one line per offered load
 *
 * One line per series: a series is a value of the input keys that vary
 * from row to row other than the one that moves the offered load (with a
 * single key, e.g. host.rxpath, the lines are "classic", "napi"; without
 * one, the rxpath column when it varies).  Axes are labelled with units.
 * When the offered load is the same on every row, the x axis is the first
 * varying input whose values read as a quantity (rx-usecs, rx-frames, ...)
 * and the CDFs have one line per value of it.
 *
 * Every figure is 800 x 560 at 12 points; every axis range is set from
 * the data (throughput: a linear load axis from 0, and the ideal line a
 * segment that ends at the top of the data's y range); the key is inside
 * the plot area where no data lie (plot_layout.h); lines that coincide are
 * named "(same as X)" in the key.
 *
 * A figure whose values are all missing (packets per interrupt without
 * interrupts) is left out, with a note on stderr.  gnuplot runs once per
 * script, so one failure does not cost the other figures.
 *
 * gnuplot is found as $RXLAB_GNUPLOT or on $PATH.  Without it, the data and
 * scripts are still written, and a note on stderr says how to install
 * gnuplot and draw them.  Output files are overwritten; nothing else in the
 * directory is touched.
 *
 * Results files come from other hosts, so nothing in them is trusted: every
 * text of a script (titles, labels, legends, file names) is a gnuplot
 * single-quoted literal of printable UTF-8 (plot_text.h), checked before it
 * is written; and no file is opened by its name in the directory: each is
 * created in a private staging directory, drawn there, then renamed into
 * place, so a symbolic link (or FIFO, or hard link) planted at a figure's
 * name is replaced, never written through.  DIR/data must be a directory.
 */
#ifndef RXLAB_REPORT_PLOT_H
#define RXLAB_REPORT_PLOT_H

#include <stdbool.h>
#include <stddef.h>

#include "report/rowfile.h"

/* Draw the figures of @rf into @dir (created if missing); @title heads
 * them (the scenario).  Returns an exit status: 0 (figures drawn, or
 * gnuplot missing and the scripts written: *@drawn tells which; @drawn may
 * be NULL), 1 (gnuplot failed), 2 (bad input: no offered_pps column, no
 * rows, @dir not writable), with a message in @err. */
int plot_rowfile(const struct rowfile *rf, const char *dir, const char *title, bool *drawn,
		 char *err, size_t errlen);

/* Make @dir (and @dir/data) if missing and check that the figures can be
 * written there, before a long sweep: 0, or 2 with a message in @err. */
int plot_check_dir(const char *dir, char *err, size_t errlen);

/* As plot_rowfile() without running gnuplot: the data and the scripts only
 * (tests, fuzzing).  0, 1 (internal error) or 2, with a message in @err. */
int plot_write(const struct rowfile *rf, const char *dir, const char *title, char *err,
	       size_t errlen);

/* The figures of the results file @in (a sweep's CSV or JSON, not a
 * shard: those merge first) into @dir, as plot_rowfile(); reading @in
 * fails with 2. */
int plot_results(const char *in, const char *dir, const char *title, bool *drawn, char *err,
		 size_t errlen);

#endif
