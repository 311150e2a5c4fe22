# plots/bars.gp: one value per solver per game variant, as clustered bars on
# a log scale (plots (a) calls, (b) time, (c) memory of plots/render.sh).
#
# Variables (gnuplot -e): term, outfile, subtitle, ylabel, title1 and
# datafile (the first panel), title2 and datafile2 (a second panel below it,
# or datafile2=''), ymin/ymax (and ymin2/ymax2): the smallest and largest
# values, so that the log axis starts below the smallest bar (a GPS solver's
# single unhash must show). A data file has a header line
# "game<TAB>solver..." and a line per game variant; "-" marks a solver that
# did not run there or a value of 0 (which a log scale cannot show).
panels = (datafile2 eq '') ? 1 : 2
ngames = int(system(sprintf("tail -n +2 '%s' | wc -l", datafile)))
width = 500 + 90 * ngames
width = width < 900 ? 900 : width
height = panels == 1 ? 620 : 1100
load dir . 'common.gp'

nsolvers = words(system(sprintf("head -n 1 '%s'", datafile))) - 1
set style data histograms
set style histogram clustered gap 1
set style fill solid 0.85 border rgb '#404040'
set boxwidth 0.9
set logscale y
set format y '10^%L'
set xtics rotate by -25 left
set key outside right top vertical title 'solver' box
set xlabel 'game variant'
set ylabel ylabel

if (panels == 2) {
    set multiplot layout 2, 1 title subtitle
    set title title1
    set yrange [ymin / 4 : ymax * 4]
    plot for [i = 2:nsolvers + 1] datafile using i:xtic(1) title columnheader(i)
    set title title2
    set yrange [ymin2 / 4 : ymax2 * 4]
    plot for [i = 2:nsolvers + 1] datafile2 using i:xtic(1) title columnheader(i)
    unset multiplot
} else {
    set title title1 . "\n" . subtitle
    set yrange [ymin / 4 : ymax * 4]
    plot for [i = 2:nsolvers + 1] datafile using i:xtic(1) title columnheader(i)
}
