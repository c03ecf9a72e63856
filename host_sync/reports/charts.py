"""Inline SVG charts (no scripts, no network): score frequencies and pair percentages."""

from collections import Counter
from html import escape

POSITIVE = "#2e7d32"  # NS plus scores, pairs above average
NEGATIVE = "#c62828"  # NS minus scores, pairs below average
NEUTRAL = "#1565c0"   # zero, average


def _colour(value, middle=0):
    return POSITIVE if value > middle else NEGATIVE if value < middle else NEUTRAL


def _svg(width, height):
    """The opening tag: drawn at its size, scaled down (viewBox) on a narrower phone screen."""
    return ('<svg xmlns="http://www.w3.org/2000/svg" class="chart" width="%d" height="%d" '
            'viewBox="0 0 %d %d" role="img">' % (width, height, width, height))


def frequency_chart(scores, width=560, bar_height=22):
    """Horizontal bars: how many tables got each NS score, best score first."""
    counts = sorted(Counter(scores).items(), reverse=True)
    if not counts:
        return ""
    most = max(c for _, c in counts)
    label_width, height = 70, bar_height * len(counts) + 10
    parts = [_svg(width, height)]
    for i, (score, count) in enumerate(counts):
        y = 5 + i * bar_height
        length = max(2, (width - label_width - 40) * count / most)
        parts.append('<text x="%d" y="%d" text-anchor="end">%d</text>' % (
            label_width - 8, y + bar_height * 0.7, score))
        parts.append('<rect x="%d" y="%d" width="%.1f" height="%d" fill="%s"/>' % (
            label_width, y + 2, length, bar_height - 6, _colour(score)))
        parts.append('<text x="%.1f" y="%d">%d</text>' % (
            label_width + length + 6, y + bar_height * 0.7, count))
    parts.append("</svg>")
    return "".join(parts)


def ranking_chart(rows, width=560, bar_height=20, middle=50):
    """Horizontal bars of (label, value) rows, e.g. pair percentages around 50."""
    if not rows:
        return ""
    top = max(max(abs(float(v)) for _, v in rows), 1.0)
    scale = max(top, 100.0) if middle == 50 else top
    label_width, height = 90, bar_height * len(rows) + 10
    parts = [_svg(width, height)]
    for i, (label, value) in enumerate(rows):
        y = 5 + i * bar_height
        length = max(2, (width - label_width - 60) * abs(float(value)) / scale)
        parts.append('<text x="%d" y="%d" text-anchor="end">%s</text>' % (
            label_width - 8, y + bar_height * 0.7, escape(str(label))))
        parts.append('<rect x="%d" y="%d" width="%.1f" height="%d" fill="%s"/>' % (
            label_width, y + 2, length, bar_height - 5, _colour(float(value), middle)))
        parts.append('<text x="%.1f" y="%d">%.2f</text>' % (
            label_width + length + 6, y + bar_height * 0.7, float(value)))
    parts.append("</svg>")
    return "".join(parts)
