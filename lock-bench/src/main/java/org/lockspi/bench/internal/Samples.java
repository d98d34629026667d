package org.lockspi.bench.internal;

import org.HdrHistogram.Histogram;

/**
 * Nanosecond samples in an HdrHistogram (three significant digits, auto-resizing), with order statistics.
 * Thread-safe; a quantile is the histogram's value at that percentile (the highest value equivalent to the
 * nearest-rank sample, within 0.1 %). A negative sample (clocks of two threads a hair apart) counts as 0.
 */
public final class Samples {
    private final Histogram histogram = new Histogram(3);

    public synchronized void add(long nanos) {
        histogram.recordValue(Math.max(0, nanos));
    }

    public synchronized void addAll(Samples other) {
        Histogram theirs;
        synchronized (other) {
            theirs = other.histogram.copy();
        }
        histogram.add(theirs);
    }

    public synchronized int size() {
        return (int) histogram.getTotalCount();
    }

    /**
     * @param q the quantile, 0 to 1
     * @return the sample at that quantile in nanoseconds, or NaN if there are none
     */
    public synchronized double quantile(double q) {
        if (histogram.getTotalCount() == 0) {
            return Double.NaN;
        }
        return histogram.getValueAtPercentile(Math.max(0, Math.min(100, q * 100)));
    }

    public double p50() {
        return quantile(0.50);
    }

    public double p99() {
        return quantile(0.99);
    }

    /** @return the largest sample in nanoseconds, or NaN if there are none */
    public synchronized double max() {
        return histogram.getTotalCount() == 0 ? Double.NaN : histogram.getMaxValue();
    }
}
