# plots/growth.gp: plot (d), time and memory against positions along one
# growth series of the matrix (series=NAME), log-log, one line per solver.
#
# Variables: term, outfile, subtitle, series, datafile, nblocks. The data
# file has one block per solver (separated by two blank lines): a quoted
# solver name, then lines "positions<TAB>seconds<TAB>peak bytes" sorted by
# positions (the variant's positions: the most any solver stored).
width = 1300
height = 560
load dir . 'common.gp'
set logscale xy
set format x '10^%L'
set format y '10^%L'
set grid xtics ytics lc rgb '#d0d0d0'
set key outside right top vertical title 'solver' box
set xlabel 'positions of the game variant (log scale)'
set style data linespoints
set multiplot layout 1, 2 title sprintf("series '%s': cost as the game grows\n%s", series, subtitle)
set title 'wall time of one solve'
set ylabel 'seconds (log scale)'
plot for [i = 0:nblocks - 1] datafile index i using 1:2 title columnheader(1) pt 7 ps 0.8
set title 'peak memory (jemalloc)'
set ylabel 'bytes (log scale)'
plot for [i = 0:nblocks - 1] datafile index i using 1:3 title columnheader(1) pt 7 ps 0.8
unset multiplot
