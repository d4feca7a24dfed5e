/* empty.c - the one source of librxlab.so, whose code is the public
 * layers linked whole (CMakeLists.txt). */
typedef int rxlab_empty;
