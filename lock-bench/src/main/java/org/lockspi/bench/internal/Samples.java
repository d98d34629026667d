package org.lockspi.bench.internal;

import java.util.Arrays;

/** A growable list of nanosecond samples with order statistics. Not thread-safe; merge per-thread lists. */
public final class Samples {
    private long[] values = new long[256];
    private int size;

    public synchronized void add(long nanos) {
        if (size == values.length) {
            values = Arrays.copyOf(values, size * 2);
        }
        values[size++] = nanos;
    }

    public synchronized void addAll(Samples other) {
        long[] theirs;
        int n;
        synchronized (other) {
            theirs = other.values;
            n = other.size;
        }
        for (int i = 0; i < n; i++) {
            add(theirs[i]);
        }
    }

    public synchronized int size() {
        return size;
    }

    /**
     * @param q the quantile, 0 to 1
     * @return the sample at that quantile (nearest rank) in nanoseconds, or NaN if there are none
     */
    public synchronized double quantile(double q) {
        if (size == 0) {
            return Double.NaN;
        }
        long[] sorted = Arrays.copyOf(values, size);
        Arrays.sort(sorted);
        int rank = (int) Math.ceil(q * size) - 1;
        return sorted[Math.max(0, Math.min(size - 1, rank))];
    }

    public double p50() {
        return quantile(0.50);
    }

    public double p99() {
        return quantile(0.99);
    }
}
