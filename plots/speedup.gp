# plots/speedup.gp: plot (e), speed-up of the parallel solvers against
# threads: the mean time at the fewest threads divided by the mean time at
# N threads, with bars from the lowest to the highest ratio of single runs,
# beside the ideal (linear) speed-up. Drawn from a board that takes seconds
# (plots/render.sh: the speed-up run, with repetitions), since two threads
# on a board solved in milliseconds measure only the overhead.
#
# Variables: term, outfile, subtitle, datafile, nblocks, min_base. The data
# file has one block per (solver, game variant): a quoted label, then lines
# "threads<TAB>speed-up<TAB>lowest<TAB>highest" by increasing threads.
width = 1000
height = 620
load dir . 'common.gp'
set title "speed-up of the parallel solvers against threads\n" . subtitle
set xlabel 'threads'
set ylabel 'speed-up (mean time at the fewest threads / mean time)'
# The lines rise from the lower left: the legend goes to the lower right.
set key bottom right vertical box opaque
set grid xtics ytics lc rgb '#d0d0d0'
set xtics 1
set autoscale xfix
set offsets 0.15, 0.15, graph 0.08, 0
if (nblocks == 0) {
    set xrange [1:2]
    set yrange [0:2.5]
    set label 1 sprintf("no parallel solver ran at several thread counts%s in this run", \
        min_base > 0 ? sprintf(" on a board of %g s or more", min_base) : "") at graph 0.5, 0.5 center
    plot x title 'ideal (linear)' dt 2 lc rgb '#808080'
} else {
    set xrange [*:*]
    set yrange [0:*]
    plot for [i = 0:nblocks - 1] datafile index i using 1:2:3:4 with yerrorlines \
            title columnheader(1) pt 7 lw 2, \
        x title 'ideal (linear)' dt 2 lc rgb '#808080'
}
