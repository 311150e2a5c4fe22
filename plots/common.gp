# plots/common.gp: terminal and style shared by the plot scripts.
# Expects term ('png' or 'svg'), outfile, and width/height in pixels.
if (term eq 'png') {
    set terminal pngcairo size width, height font 'sans,11' noenhanced
} else {
    set terminal svg size width, height font 'sans,11' noenhanced background rgb 'white'
}
set output outfile
set datafile separator "\t"
set datafile missing "-"
set grid ytics lc rgb '#d0d0d0'
set border 3
set tics nomirror
# Sixteen distinct colours, so that a solver keeps its colour in every
# plot (render.sh gives every chart the same solver order).
array palette[16] = ['#1f77b4', '#d62728', '#2ca02c', '#ff7f0e', '#9467bd', '#8c564b', \
    '#e377c2', '#17becf', '#bcbd22', '#7f7f7f', '#393b79', '#e7ba52', '#000000', \
    '#aec7e8', '#98df8a', '#ff9896']
do for [i = 1:16] {
    set linetype i lc rgb palette[i] lw 1.5 pt 7
}
set linetype cycle 16
