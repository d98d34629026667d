package org.lockspi.bench.internal;

import java.awt.BasicStroke;
import java.awt.Color;
import java.awt.Font;
import java.awt.FontMetrics;
import java.awt.Graphics2D;
import java.awt.RenderingHints;
import java.awt.image.BufferedImage;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

import javax.imageio.ImageIO;

/** Draws the run's chart with Java2D, headless: latency, throughput, hand-off under a queue, many threads. */
public final class Chart {
    private static final int W = 1500;
    private static final int H = 1000;
    static final Color[] PALETTE = {
        new Color(0x1f77b4), new Color(0xff7f0e), new Color(0x2ca02c), new Color(0xd62728),
        new Color(0x9467bd), new Color(0x8c564b), new Color(0xe377c2), new Color(0x7f7f7f),
        new Color(0xbcbd22), new Color(0x17becf), new Color(0x000000), new Color(0x393b79)};

    private final Results results;
    private final Map<String, Color> colors = new LinkedHashMap<>();

    private Chart(Results results) {
        this.results = results;
        for (Results.Cycle c : results.uncontended) {
            colors.put(c.variant, PALETTE[colors.size() % PALETTE.length]);
        }
    }

    private Color color(String variant) {
        return colors.computeIfAbsent(variant, v -> PALETTE[colors.size() % PALETTE.length]);
    }

    /** A drawing on a white canvas, headless, antialiased; {@link #write(Path)} saves it as a PNG. */
    static final class Canvas {
        final BufferedImage image;
        final Graphics2D g;

        Canvas(int width, int height, String title, int titleSize) {
            System.setProperty("java.awt.headless", "true");
            image = new BufferedImage(width, height, BufferedImage.TYPE_INT_RGB);
            g = image.createGraphics();
            g.setRenderingHint(RenderingHints.KEY_ANTIALIASING, RenderingHints.VALUE_ANTIALIAS_ON);
            g.setRenderingHint(RenderingHints.KEY_TEXT_ANTIALIASING, RenderingHints.VALUE_TEXT_ANTIALIAS_ON);
            g.setColor(Color.WHITE);
            g.fillRect(0, 0, width, height);
            g.setColor(Color.BLACK);
            g.setFont(new Font(Font.SANS_SERIF, Font.BOLD, titleSize));
            g.drawString(title, 20, 28);
        }

        /** Ends the drawing and writes the PNG, creating its directory. */
        void write(Path png) throws IOException {
            g.dispose();
            Path parent = png.toAbsolutePath().getParent();
            if (parent != null) {
                Files.createDirectories(parent);
            }
            ImageIO.write(image, "png", png.toFile());
        }
    }

    /** Writes the chart as a PNG. */
    public static void write(Results results, Path png) throws IOException {
        Canvas canvas = new Canvas(W, H, "lockspi: ZooKeeper vs Redis, every provider through lock-api ("
                + results.settings.mode() + " run, " + results.date + ")", 18);
        Graphics2D g = canvas.g;
        try {
            Chart chart = new Chart(results);
            chart.uncontended(g, 20, 50, W / 2 - 30, H / 2 - 60);
            chart.contended(g, W / 2 + 10, 50, W / 2 - 30, H / 2 - 60);
            chart.drain(g, 20, H / 2 + 10, W / 2 - 30, H / 2 - 30);
            chart.threads(g, W / 2 + 10, H / 2 + 10, W / 2 - 30, H / 2 - 30);
        } finally {
            canvas.write(png);
        }
    }

    static String fmt(double v) {
        if (Double.isNaN(v)) {
            return "n/a";
        }
        if (v >= 100) {
            return String.format(Locale.ROOT, "%.0f", v);
        }
        if (v >= 10) {
            return String.format(Locale.ROOT, "%.1f", v);
        }
        return String.format(Locale.ROOT, "%.2f", v);
    }

    private static void title(Graphics2D g, String text, int x, int y) {
        g.setColor(Color.BLACK);
        g.setFont(new Font(Font.SANS_SERIF, Font.BOLD, 14));
        g.drawString(text, x, y + 14);
        g.setFont(new Font(Font.SANS_SERIF, Font.PLAIN, 11));
    }

    /** Horizontal bars on a log scale, one row per label; values in the given unit. */
    private void bars(Graphics2D g, int x, int y, int w, int h, List<String> labels, List<String> series,
                      List<Double> values, String unit, boolean log) {
        int labelW = 300;
        int plotX = x + labelW;
        int plotW = w - labelW - 60;
        double max = 0;
        double min = Double.MAX_VALUE;
        for (double v : values) {
            if (!Double.isNaN(v) && v > 0) {
                max = Math.max(max, v);
                min = Math.min(min, v);
            }
        }
        if (max == 0) {
            g.setColor(Color.GRAY);
            g.drawString("no data", plotX, y + 20);
            return;
        }
        double lo = log ? Math.pow(10, Math.floor(Math.log10(min))) : 0;
        double hi = log ? Math.pow(10, Math.ceil(Math.log10(max))) : max * 1.1;
        int rows = labels.size();
        int rowH = Math.max(8, Math.min(26, (h - 30) / Math.max(1, rows)));
        FontMetrics fm = g.getFontMetrics();
        // grid
        g.setColor(new Color(0xdddddd));
        if (log) {
            for (double t = lo; t <= hi * 1.0001; t *= 10) {
                int gx = plotX + (int) (plotW * Math.log10(t / lo) / Math.log10(hi / lo));
                g.drawLine(gx, y, gx, y + rows * rowH);
                g.setColor(Color.GRAY);
                g.drawString(fmt(t) + " " + unit, gx - 10, y + rows * rowH + 14);
                g.setColor(new Color(0xdddddd));
            }
        } else {
            for (int i = 0; i <= 4; i++) {
                double t = hi * i / 4;
                int gx = plotX + (int) (plotW * i / 4.0);
                g.drawLine(gx, y, gx, y + rows * rowH);
                g.setColor(Color.GRAY);
                g.drawString(fmt(t) + (i == 4 ? " " + unit : ""), gx - 10, y + rows * rowH + 14);
                g.setColor(new Color(0xdddddd));
            }
        }
        for (int i = 0; i < rows; i++) {
            int ry = y + i * rowH;
            double v = values.get(i);
            g.setColor(Color.BLACK);
            String label = labels.get(i);
            while (fm.stringWidth(label) > labelW - 8 && label.length() > 4) {
                label = label.substring(0, label.length() - 2);
            }
            g.drawString(label, x, ry + rowH - 4);
            if (Double.isNaN(v) || v <= 0) {
                g.setColor(Color.GRAY);
                g.drawString("not measured", plotX + 4, ry + rowH - 4);
                continue;
            }
            double frac = log ? Math.log10(v / lo) / Math.log10(hi / lo) : v / hi;
            int bw = Math.max(1, (int) (plotW * frac));
            g.setColor(color(series.get(i)));
            g.fillRect(plotX, ry + 2, bw, rowH - 4);
            g.setColor(Color.BLACK);
            g.drawString(fmt(v), plotX + bw + 4, ry + rowH - 4);
        }
    }

    private void uncontended(Graphics2D g, int x, int y, int w, int h) {
        title(g, "Uncontended acquire+release, p50 (log scale)", x, y);
        List<String> labels = new ArrayList<>();
        List<Double> values = new ArrayList<>();
        List<String> series = new ArrayList<>();
        for (Results.Cycle c : results.uncontended) {
            labels.add(c.variant + " [" + c.role.name().toLowerCase(Locale.ROOT) + "]");
            series.add(c.variant);
            values.add(c.error == null ? c.cycle.p50() / 1e3 : Double.NaN);
        }
        bars(g, x, y + 30, w, h - 40, labels, series, values, "us", true);
    }

    private void contended(Graphics2D g, int x, int y, int w, int h) {
        title(g, "Contended throughput, K clients on one lock (acquisitions/s, log scale)", x, y);
        List<String> labels = new ArrayList<>();
        List<Double> values = new ArrayList<>();
        List<String> series = new ArrayList<>();
        for (Results.Contended c : results.contended) {
            labels.add(c.variant + ", K=" + c.clients);
            series.add(c.variant);
            values.add(c.error == null ? c.rate() : Double.NaN);
        }
        bars(g, x, y + 30, w, h - 40, labels, series, values, "/s", true);
    }

    private void threads(Graphics2D g, int x, int y, int w, int h) {
        title(g, results.settings.threads() + " threads of one client on one lock (acquisitions/s, log scale)", x, y);
        List<String> labels = new ArrayList<>();
        List<Double> values = new ArrayList<>();
        List<String> series = new ArrayList<>();
        for (Results.Contended c : results.manyThreads) {
            labels.add(c.variant);
            String base = c.variant.startsWith("Curator InterProcessMutex") ? "Curator InterProcessMutex"
                    : c.variant.startsWith("Redisson") ? "Redisson RLock" : c.variant.split(",")[0];
            series.add(base);
            values.add(c.error == null ? c.rate() : Double.NaN);
        }
        bars(g, x, y + 30, w, h - 40, labels, series, values, "/s", true);
    }

    /** Hand-off p50 against the queue length, log-log, one line per variant. */
    private void drain(Graphics2D g, int x, int y, int w, int h) {
        title(g, "Hand-off p50 while a queue of N waiters drains (log-log)", x, y);
        Map<String, List<Results.Drain>> byVariant = new LinkedHashMap<>();
        double maxN = 1;
        double lo = Double.MAX_VALUE;
        double hi = 0;
        for (Results.Drain d : results.drains) {
            if (d.handoff.size() == 0) {
                continue;
            }
            byVariant.computeIfAbsent(d.variant, v -> new ArrayList<>()).add(d);
            maxN = Math.max(maxN, d.waiters);
            lo = Math.min(lo, d.handoff.p50() / 1e3);
            hi = Math.max(hi, d.handoff.p50() / 1e3);
        }
        int plotX = x + 60;
        int plotY = y + 30;
        int plotW = w - 260;
        int plotH = h - 70;
        if (byVariant.isEmpty()) {
            g.setColor(Color.GRAY);
            g.drawString("no data", plotX, plotY + 20);
            return;
        }
        lo = Math.pow(10, Math.floor(Math.log10(lo)));
        hi = Math.pow(10, Math.ceil(Math.log10(hi)));
        if (hi <= lo) {
            hi = lo * 10;
        }
        double nHi = Math.max(10, Math.pow(10, Math.ceil(Math.log10(maxN))));
        g.setColor(new Color(0xdddddd));
        for (double t = lo; t <= hi * 1.0001; t *= 10) {
            int gy = plotY + plotH - (int) (plotH * Math.log10(t / lo) / Math.log10(hi / lo));
            g.drawLine(plotX, gy, plotX + plotW, gy);
            g.setColor(Color.GRAY);
            g.drawString(fmt(t) + " us", x, gy + 4);
            g.setColor(new Color(0xdddddd));
        }
        for (double n = 1; n <= nHi * 1.0001; n *= 10) {
            int gx = plotX + (int) (plotW * Math.log10(n) / Math.log10(nHi));
            g.drawLine(gx, plotY, gx, plotY + plotH);
            g.setColor(Color.GRAY);
            g.drawString("N=" + (long) n, gx - 10, plotY + plotH + 14);
            g.setColor(new Color(0xdddddd));
        }
        int legendY = plotY + 10;
        g.setStroke(new BasicStroke(2f));
        for (Map.Entry<String, List<Results.Drain>> e : byVariant.entrySet()) {
            g.setColor(color(e.getKey()));
            int px = -1;
            int py = -1;
            for (Results.Drain d : e.getValue()) {
                int cx = plotX + (int) (plotW * Math.log10(d.waiters) / Math.log10(nHi));
                int cy = plotY + plotH - (int) (plotH * Math.log10(d.handoff.p50() / 1e3 / lo) / Math.log10(hi / lo));
                g.fillOval(cx - 4, cy - 4, 8, 8);
                if (px >= 0) {
                    g.drawLine(px, py, cx, cy);
                }
                px = cx;
                py = cy;
            }
            g.fillRect(plotX + plotW + 20, legendY - 8, 12, 8);
            g.setColor(Color.BLACK);
            g.drawString(e.getKey(), plotX + plotW + 36, legendY);
            legendY += 18;
        }
        g.setStroke(new BasicStroke(1f));
    }
}
