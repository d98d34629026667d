package org.lockspi.bench.internal;

import java.awt.BasicStroke;
import java.awt.Color;
import java.awt.Font;
import java.awt.Graphics2D;
import java.io.IOException;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;

/**
 * Draws one curve as a PNG with Java2D, headless, in the trade-off chart's colours: one line per series, x and y
 * on a log or linear scale; anchors dashed.
 */
final class CurveChart {
    private static final int W = 1200;
    private static final int H = 700;

    private CurveChart() {
    }

    /**
     * @param png     where to write it
     * @param title   its title
     * @param xLabel  the x axis's name
     * @param yUnit   the y values' unit
     * @param series  per series name, its points (x, y); NaN or non-positive y (on a log scale) are left out
     * @param dashed  the series drawn dashed (the anchors)
     * @param logX    whether x is on a log scale
     * @param logY    whether y is on a log scale
     */
    static void write(Path png, String title, String xLabel, String yUnit, Map<String, List<double[]>> series,
                      java.util.Set<String> dashed, boolean logX, boolean logY) throws IOException {
        Chart.Canvas canvas = new Chart.Canvas(W, H, title, 16);
        Graphics2D g = canvas.g;
        try {
            g.setFont(new Font(Font.SANS_SERIF, Font.PLAIN, 12));
            double xLo = Double.MAX_VALUE;
            double xHi = -Double.MAX_VALUE;
            double yLo = Double.MAX_VALUE;
            double yHi = -Double.MAX_VALUE;
            java.util.TreeSet<Double> xs = new java.util.TreeSet<>();
            for (List<double[]> points : series.values()) {
                for (double[] p : points) {
                    if (usable(p, logX, logY)) {
                        xs.add(p[0]);
                        xLo = Math.min(xLo, p[0]);
                        xHi = Math.max(xHi, p[0]);
                        yLo = Math.min(yLo, p[1]);
                        yHi = Math.max(yHi, p[1]);
                    }
                }
            }
            int plotX = 110;
            int plotY = 50;
            int plotW = W - 420;
            int plotH = H - 120;
            if (xLo > xHi) {
                g.setColor(Color.GRAY);
                g.drawString("no data", plotX, plotY + 20);
                return;
            }
            if (logY) {
                yLo = Math.pow(10, Math.floor(Math.log10(yLo)));
                yHi = Math.pow(10, Math.ceil(Math.log10(yHi)));
                if (yHi <= yLo) {
                    yHi = yLo * 10;
                }
            } else {
                yLo = Math.min(0, yLo);
                yHi = yHi <= yLo ? yLo + 1 : yHi * 1.1;
            }
            if (xHi <= xLo) {
                xHi = logX ? xLo * 10 : xLo + 1;
            }
            Axis x = new Axis(xLo, xHi, logX, plotX, plotW, false);
            Axis y = new Axis(yLo, yHi, logY, plotY, plotH, true);
            g.setColor(new Color(0xdddddd));
            for (double t : y.ticks()) {
                int gy = y.at(t);
                g.drawLine(plotX, gy, plotX + plotW, gy);
                g.setColor(Color.GRAY);
                g.drawString(Chart.fmt(t) + " " + yUnit, 10, gy + 4);
                g.setColor(new Color(0xdddddd));
            }
            // on a log scale the measured x values are the grid; on a linear one, even steps
            for (double t : logX ? xs.stream().mapToDouble(Double::doubleValue).toArray() : x.ticks()) {
                int gx = x.at(t);
                g.drawLine(gx, plotY, gx, plotY + plotH);
                g.setColor(Color.GRAY);
                g.drawString(t == Math.rint(t) ? Long.toString((long) t) : Chart.fmt(t), gx - 10, plotY + plotH + 16);
                g.setColor(new Color(0xdddddd));
            }
            g.setColor(Color.BLACK);
            g.drawString(xLabel + (logX ? " (log scale)" : ""), plotX + plotW / 2 - 60, plotY + plotH + 40);
            int legendY = plotY + 10;
            // one colour per variant, whatever its kinds; a second kind (" (nonReentrantMutex)") is dotted
            Map<String, Color> colours = new java.util.LinkedHashMap<>();
            for (Map.Entry<String, List<double[]>> e : series.entrySet()) {
                Color c = colours.computeIfAbsent(variantOf(e.getKey()),
                        v -> Chart.PALETTE[colours.size() % Chart.PALETTE.length]);
                boolean dash = dashed.contains(e.getKey());
                boolean dot = !dash && e.getKey().endsWith(" (nonReentrantMutex)");
                g.setColor(c);
                g.setStroke(dash ? new BasicStroke(2f, BasicStroke.CAP_BUTT, BasicStroke.JOIN_MITER, 10f,
                        new float[] {8f, 6f}, 0f) : dot ? new BasicStroke(2f, BasicStroke.CAP_ROUND,
                        BasicStroke.JOIN_ROUND, 10f, new float[] {1f, 5f}, 0f) : new BasicStroke(2f));
                int px = -1;
                int py = -1;
                for (double[] p : e.getValue()) {
                    if (!usable(p, logX, logY)) {
                        px = -1;
                        continue;
                    }
                    int cx = x.at(p[0]);
                    int cy = y.at(p[1]);
                    g.fillOval(cx - 4, cy - 4, 8, 8);
                    if (px >= 0) {
                        g.drawLine(px, py, cx, cy);
                    }
                    px = cx;
                    py = cy;
                }
                g.drawLine(plotX + plotW + 20, legendY - 4, plotX + plotW + 44, legendY - 4);
                g.setColor(Color.BLACK);
                g.drawString(e.getKey() + (dash ? " (anchor)" : ""), plotX + plotW + 52, legendY);
                legendY += 18;
            }
            g.setStroke(new BasicStroke(1f));
        } finally {
            canvas.write(png);
        }
    }

    /** @return a series' variant: its name without a trailing {@code " (kind)"} */
    private static String variantOf(String series) {
        int kind = series.lastIndexOf(" (");
        return kind > 0 && series.endsWith(")") ? series.substring(0, kind) : series;
    }

    private static boolean usable(double[] p, boolean logX, boolean logY) {
        return !Double.isNaN(p[0]) && !Double.isNaN(p[1]) && !Double.isInfinite(p[1]) && (!logX || p[0] > 0)
                && (!logY || p[1] > 0);
    }

    /** One axis: a value's pixel and the grid's ticks. */
    private record Axis(double lo, double hi, boolean log, int start, int length, boolean inverted) {
        int at(double v) {
            double frac = log ? Math.log10(v / lo) / Math.log10(hi / lo) : (v - lo) / (hi - lo);
            int offset = (int) Math.round(length * frac);
            return inverted ? start + length - offset : start + offset;
        }

        double[] ticks() {
            java.util.List<Double> out = new java.util.ArrayList<>();
            if (log) {
                for (double t = Math.pow(10, Math.floor(Math.log10(lo))); t <= hi * 1.0001; t *= 10) {
                    if (t >= lo * 0.9999) {
                        out.add(t);
                    }
                }
            } else {
                for (int i = 0; i <= 4; i++) {
                    out.add(lo + (hi - lo) * i / 4);
                }
            }
            return out.stream().mapToDouble(Double::doubleValue).toArray();
        }
    }
}
