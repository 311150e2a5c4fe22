# plots/speedup.gp: plot (e), speed-up of the parallel solvers against
# threads: time at the fewest threads run divided by the time at N threads,
# one line per solver and game variant, with the ideal (linear) speed-up.
#
# Variables: term, outfile, subtitle, datafile, nblocks. The data file has
# one block per (solver, game variant): a quoted "solver game" line, then
# lines "threads<TAB>speed-up" by increasing threads.
width = 1000
height = 620
load dir . 'common.gp'
set title "speed-up of parallel solvers\n" . subtitle
set xlabel 'threads'
set ylabel 'speed-up (time at fewest threads / time)'
set key outside right top vertical title 'solver, game' box
set grid xtics ytics lc rgb '#d0d0d0'
set xtics 1
set style data linespoints
if (nblocks == 0) {
    set xrange [1:2]
    set yrange [0:2.5]
    set label 1 'no parallel solver ran at several thread counts in this run' at graph 0.5, 0.5 center
    plot x title 'ideal (linear)' dt 2 lc rgb '#808080'
} else {
    set xrange [1:*]
    set yrange [0:*]
    plot for [i = 0:nblocks - 1] datafile index i using 1:2 title columnheader(1) pt 7, \
        x title 'ideal (linear)' dt 2 lc rgb '#808080'
}
