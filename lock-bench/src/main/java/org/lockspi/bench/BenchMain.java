package org.lockspi.bench;

public final class BenchMain {
    public static void main(String[] args) {
    }
}
