# plots/bytes.gp: plot (f), bytes per position against board size, the
# symbolic solvers against the explicit ones, one panel per growth series
# where a symbolic solver ran (tictactoe, connect4), log-log.
#
# Variables: term, outfile, subtitle, files and names (one data file and
# one series name per panel, space-separated, in the same order). Block 0
# of a file is the explicit solvers' range: a quoted label, then
# "positions<TAB>least<TAB>most<TAB>solvers" (bytes per position); drawn as
# a band, so that a dozen explicit solvers make one legend entry. Blocks 1
# on are the symbolic solvers, a quoted name then "positions<TAB>bytes per
# position", drawn as lines. The titles are the multiplot's, centred on the
# canvas: a long machine name is not cut.
npanels = words(names)
width = 560 * npanels + 80
width = width < 900 ? 900 : width
height = 600
load dir . 'common.gp'
set logscale xy
set format x '10^%L'
set format y '10^%L'
set grid xtics ytics lc rgb '#d0d0d0'
set key top right vertical box opaque samplen 2
set xlabel 'positions of the board (log scale)'
set ylabel 'peak bytes per position (jemalloc; log scale)'
set offsets graph 0.05, graph 0.05, graph 0.05, graph 0.05
set multiplot layout 1, npanels title \
    sprintf("bytes per position as the board grows: symbolic (BDD) solvers against the explicit ones\n%s", subtitle)
do for [k = 1:npanels] {
    f = word(files, k)
    nb = int(system(sprintf("grep -c '^\"' '%s'", f)))
    set title sprintf("series '%s'", word(names, k))
    # The band, its edges, and a bar at each size (a series of one size has
    # no band to fill). Symbolic solvers: a point type and dash each, since
    # two of them can hold the same peak (the BDD package's node table).
    plot f index 0 using 1:2:3 with filledcurves fc rgb '#c8c8c8' fs solid 0.6 \
            title columnheader(1), \
        '' index 0 using 1:2 with lines lc rgb '#808080' dt 2 notitle, \
        '' index 0 using 1:3 with lines lc rgb '#808080' dt 2 notitle, \
        '' index 0 using 1:(sqrt($2 * $3)):2:3 with yerrorbars lc rgb '#606060' pt -1 notitle, \
        for [i = 1:nb - 1] '' index i using 1:2 with linespoints lt i pt (4 + 2 * i) \
            ps (1.6 - 0.3 * i) dt i lw 2 title columnheader(1)
}
unset multiplot
