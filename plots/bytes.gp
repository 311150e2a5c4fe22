# plots/bytes.gp: plot (f), bytes per position against board size, explicit
# and symbolic solvers side by side, along every growth series where a
# symbolic solver ran (connect4), log-log, one line per solver.
#
# Variables: term, outfile, subtitle, datafile, nblocks. The data file has
# one block per series and solver (separated by two blank lines): a quoted
# label ("connect4, explicit: tier", "connect4, symbolic: symbolic"), then lines
# "positions<TAB>peak bytes / positions" sorted by positions; the first
# nsymbolic blocks are symbolic solvers (solid lines), the rest explicit
# (dashed).
width = 1000
height = 560
load dir . 'common.gp'
set logscale xy
set format x '10^%L'
set grid xtics ytics lc rgb '#d0d0d0'
set key outside right top vertical title 'series, family: solver' box
set xlabel 'positions of the board (log scale)'
set ylabel 'peak bytes per position (jemalloc; log scale)'
set style data linespoints
set title sprintf("bytes per position against board size, explicit vs symbolic\n%s", subtitle)
plot for [i = 0:nsymbolic - 1] datafile index i using 1:2 title columnheader(1) pt 7 ps 0.8 \
        lt i + 1 dt 1, \
    for [i = nsymbolic:nblocks - 1] datafile index i using 1:2 title columnheader(1) pt 6 \
        ps 0.8 lt i + 1 dt 2
