/* plot_layout.h - the geometry of a figure: axis ranges and where the key goes.
 *
 * rxlab sets every axis range of its figures itself (gnuplot's autoscale
 * would stretch the throughput figure's y axis to the ideal line's end),
 * so it knows where each line lies in the plot area, and puts the key
 * (the legend) inside the plot area in a corner no line, point or filled
 * area crosses.  The plot area is a grid of LAYOUT_GX x LAYOUT_GY cells;
 * a line marks the cells it passes through, a filled curve also every
 * cell below it.  When every corner is taken, the y range grows at the
 * top until the data leave room for the key above them (headroom).
 *
 * The key's size comes from its text: gnuplot (pngcairo and svg at the
 * font rxlab sets, 800 x 560 pixels) gives each line of the key about
 * LAYOUT_ROW_PX pixels, and each column the width of its longest title
 * plus the line sample (7 characters), at about LAYOUT_CHAR_PX pixels a
 * character (gnuplot's own estimate, which the opaque key blanks); the
 * plot area is about LAYOUT_AREA_W_PX x LAYOUT_AREA_H_PX pixels.  These are
 * estimates (a glyph's width varies), so the key is also drawn opaque.
 *
 * Pure arithmetic: nothing here writes or reads a file.
 */
#ifndef RXLAB_REPORT_PLOT_LAYOUT_H
#define RXLAB_REPORT_PLOT_LAYOUT_H

#include <stdbool.h>
#include <stddef.h>

#define LAYOUT_GX 80
#define LAYOUT_GY 50
#define LAYOUT_CHAR_PX 10.5
#define LAYOUT_ROW_PX 18.0
#define LAYOUT_AREA_W_PX 660.0
#define LAYOUT_AREA_H_PX 430.0

/* One axis: [lo, hi] in data units, linear or logarithmic (then lo > 0). */
struct layout_axis {
	double lo, hi;
	bool log;
};

/* The plot area of one figure: its axes and the cells its data cover,
 * cover[row][column], row 0 at the bottom. */
struct layout {
	struct layout_axis x, y;
	bool cover[LAYOUT_GY][LAYOUT_GX];
};

/* Where the key goes. */
enum layout_corner {
	LAYOUT_TOP_LEFT, LAYOUT_TOP_RIGHT, LAYOUT_BOTTOM_LEFT, LAYOUT_BOTTOM_RIGHT,
	LAYOUT_AT,               /* its top left corner at (at_x, at_y) */
	LAYOUT_OUTSIDE,          /* too big for the plot area: to its right */
};

/* The key: @entries lines of the plot in @cols columns, the longest
 * title @title_chars characters (UTF-8 characters, not bytes), plus
 * @title_rows rows for a key title of @head_chars characters. */
struct layout_key {
	size_t entries, cols, title_chars, title_rows, head_chars;
};

/* The key's decision: its corner, and the new top of the y range when
 * the data were moved down to leave it room (else the old one). */
struct layout_place {
	enum layout_corner corner;
	double at_x, at_y;       /* LAYOUT_AT: fractions of the plot area, from its bottom left */
	double y_hi;
};

/* The smallest value of the 1-2-5 series (1, 2, 5, 10, 20, ...; times
 * powers of ten) at or above @v > 0, and the largest at or below it. */
double layout_nice_up(double v);
double layout_nice_down(double v);

/* A round number at or above @max, the top of a linear axis from 0: @max
 * rounded up to a multiple of a step of 1, 2 or 5 times a power of ten
 * that splits it into 4 to 10 steps (376 -> 400, 79.8 -> 80); 1 when
 * @max <= 0. */
double layout_round_up(double max);

/* A log axis around [@min, @max] (both > 0): each end widened to the 1-2-5
 * series; within a factor of ten, to a multiple of a linear step (as
 * layout_round_up()'s, the top 2% above @max: 20100..21900 -> 20000..22400);
 * an axis of a single
 * value spans one step either side. */
struct layout_axis layout_log_axis(double min, double max);

/* The tics of log axis @a into @tics (at most @max): none when it spans
 * more than three decades (gnuplot's powers of ten then do); 1, 2 and 5
 * times the powers of ten when it spans a decade or more; else multiples
 * of a linear step.  A tic closer than 8% of the axis to the one before is
 * left out, so labels do not run into each other.  Returns their number. */
size_t layout_log_tics(const struct layout_axis *a, double *tics, size_t max);

/* An empty plot area with axes @x and @y. */
void layout_init(struct layout *l, struct layout_axis x, struct layout_axis y);

/* Mark the line through the @n points (@x[i], @y[i]) in data units (a
 * point that is not finite, or not > 0 on a log axis, is left out and the
 * line joins its neighbours); @fill: also every cell below the line. */
void layout_line(struct layout *l, const double *x, const double *y, size_t n, bool fill);

/* The place for @key: the first of top left, top right, bottom left,
 * bottom right whose cells (and a margin of a cell) no data cover; else
 * the leftmost free place along the top, then along the bottom, then
 * along each row from the top down (LAYOUT_AT); else the top corner whose data reach least high, with y_hi raised until
 * they end below the key; LAYOUT_OUTSIDE when the key would take over half
 * the plot area's height or more than its width. */
struct layout_place layout_key_place(const struct layout *l, const struct layout_key *key);

#endif
