package org.lockspi.examples;

import java.util.List;

/**
 * The outcome of a stock run, read from the database.
 *
 * @param initial   the items in stock at the start
 * @param remaining the items the stock row says are left
 * @param sales     every sale in the order it was recorded
 * @param overlaps  how often a worker found another one inside the critical section
 * @param stale     how many writes the fence refused: a holder's token was lower than one that had written
 */
record StockReport(int initial, int remaining, List<Sale> sales, int overlaps, int stale) {

    /**
     * One item sold.
     *
     * @param worker   the worker process's label
     * @param provider the lock provider it used, or {@code none}
     * @param token    the fencing token of its lease, or null without a lock
     */
    record Sale(String worker, String provider, Long token) {
    }

    StockReport {
        sales = List.copyOf(sales);
    }

    /** @return how many items were sold (one per sale row) */
    int sold() {
        return sales.size();
    }

    /** @return how many more items were sold than there were: the oversell */
    int oversold() {
        return Math.max(0, sold() - initial);
    }

    /**
     * @return sales that the stock row does not account for: a worker wrote a stock level computed from a
     *         stale read, so another worker's decrement was lost
     */
    int lostUpdates() {
        return sold() - (initial - remaining);
    }

    /** @return whether every sale has a fencing token greater than the one before it */
    boolean tokensIncreasing() {
        for (int i = 0; i < sales.size(); i++) {
            Long token = sales.get(i).token();
            if (token == null || i > 0 && token <= sales.get(i - 1).token()) {
                return false;
            }
        }
        return true;
    }

    /** @return whether nothing went wrong: no oversell, no lost update, no overlap */
    boolean clean() {
        return oversold() == 0 && lostUpdates() == 0 && overlaps == 0;
    }

    /** @return the summary line the example prints */
    String summary() {
        return String.format("items sold: %d of %d   oversold: %d   stock left: %d   lost updates: %d"
                + "   overlaps seen: %d   stale writes refused: %d", sold(), initial, oversold(), remaining,
                lostUpdates(), overlaps, stale);
    }
}
