# scripts/table-format.awk: the number formats of the series' Markdown
# tables (scripts/morris/placement-table.sh,
# scripts/baghchal/placement-table.sh), loaded with -f before the table's
# own program: c(x) an integer with thousands' commas, mem(x) bytes in MiB
# or GiB, disk(x) bytes in MB or GB, hm(d) the hours and minutes of an ISO
# date (2026-11-27T08:35:21Z gives 08:35).
function c(x,    s, r) {
    s = sprintf("%.0f", x); r = ""
    while (length(s) > 3) { r = "," substr(s, length(s) - 2) r; s = substr(s, 1, length(s) - 3) }
    return s r
}
function mem(x) { return x >= 2^30 ? sprintf("%.2f GiB", x / 2^30) : sprintf("%.1f MiB", x / 2^20) }
function disk(x) { return x >= 1e9 ? sprintf("%.2f GB", x / 1e9) : sprintf("%.1f MB", x / 1e6) }
function hm(d) { return substr(d, 12, 5) }
