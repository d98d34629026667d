package org.lockspi.tck.reference;

import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.concurrent.locks.ReentrantLock;
import org.lockspi.inmemory.internal.Conduct;
import org.lockspi.inmemory.internal.Entry;
import org.lockspi.inmemory.internal.Waiter;

/** The in-memory provider's conduct with one {@link Defect}, and optionally waiters that block in I/O. */
final class DefectConduct extends Conduct {
    private final Defect defect;
    private final boolean waitsInIo;

    DefectConduct(Defect defect, boolean waitsInIo) {
        this.defect = defect;
        this.waitsInIo = waitsInIo;
    }

    @Override
    protected boolean grantable(boolean byTheRules) {
        return byTheRules || defect == Defect.GRANT_ALL;
    }

    @Override
    protected List<Entry> grantOrder(List<Entry> queue) {
        if (defect != Defect.LIFO) {
            return queue;
        }
        List<Entry> newestFirst = new ArrayList<>(queue);
        Collections.reverse(newestFirst);
        return newestFirst;
    }

    @Override
    protected boolean leavesEntryOnTimeout() {
        return defect == Defect.LEAK_ON_TIMEOUT;
    }

    @Override
    protected boolean leavesEntryOnInterrupt() {
        return defect == Defect.LEAK_ON_INTERRUPT;
    }

    @Override
    protected Waiter newWaiter(ReentrantLock spaceLock) {
        return waitsInIo ? new IoWaker(spaceLock) : super.newWaiter(spaceLock);
    }
}
