package org.lockspi.tck.process;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.FileAlreadyExistsException;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.CopyOnWriteArrayList;
import org.lockspi.Acquirable;
import org.lockspi.Lease;
import org.lockspi.LeaseState;
import org.lockspi.LockConnectionException;
import org.lockspi.LockFeature;
import org.lockspi.LockService;
import org.lockspi.Locks;
import org.lockspi.leader.LeaderListener;
import org.lockspi.leader.Leadership;
import org.lockspi.leader.Participant;
import org.lockspi.leader.StopReason;
import org.lockspi.leader.Term;
import org.lockspi.tck.internal.FencedRegister;
import org.lockspi.tck.internal.HoldWatch;

/**
 * The lock client that the failure contracts run in a {@link org.lockspi.tck.support.ChildJvm}. It opens
 * {@code Locks.open(uri, provider)} (the provider found by {@link java.util.ServiceLoader} in the child) and
 * talks in lines on standard output:
 *
 * <dl>
 *   <dt>{@code hold <uri> <provider> <lock> <kind> [<lock> <kind> ...]}</dt>
 *   <dd>acquires the lock (waiting up to {@value #WAIT_SECONDS} s), prints {@code HELD <fencing token>} (or
 *       {@code HELD none} without {@link LockFeature#FENCING_TOKENS}) and waits for {@code release} on standard
 *       input, then prints {@code RELEASING <state>} (the lease's {@link Lease#state()} just before it is
 *       released), releases, prints {@code RELEASED} and ends; it also ends when its input closes. With several
 *       locks each is acquired in a thread of its own, at once, and each grant prints
 *       {@code HELD <token> <lock>}; {@code release} releases every lease held and prints {@code RELEASED}.</dd>
 *   <dt>{@code hammer <uri> <provider> <lock> <kind> <n> <dir>}</dt>
 *   <dd>prints {@code READY}, waits for {@code go} on standard input, then {@code n} times acquires, runs
 *       {@link #guardedIncrement(Path)} on {@code dir} and releases; prints {@code DONE <n>}, or
 *       {@code OVERLAP <i>} and exits with {@value #EXIT_OVERLAP} as soon as it finds another holder inside the
 *       critical section.</dd>
 *   <dt>{@code guard <uri> <provider> <lock> <kind> <registerPort> <client>}</dt>
 *   <dd>acquires the lock as {@code hold} does, tells the {@link FencedRegister} on {@code registerPort}
 *       {@code ACQUIRED <client> <token>}, prints {@code HELD <token>}, and watches the lease with a
 *       {@link HoldWatch} (its state every 2 ms; {@code ENDED} goes to the register when it is seen not HELD,
 *       {@code ACQUIRED} when HELD again). Then, line by line on standard input: {@code jump [<ms>]} prints
 *       {@code JUMP <gap ms> <state>}, the first state seen after the longest time the watch thread was not
 *       scheduled, if that was at least {@code <ms>} (default {@value #JUMP_MS}; waiting up to 10 s for one),
 *       or {@code JUMP none}; {@code state} prints {@code STATE <state>}; {@code write} writes to the
 *       register with the lease's token and prints {@code WRITE OK} or {@code WRITE STALE}; {@code release}
 *       releases, prints {@code RELEASED} (or {@code RELEASED unconfirmed: <message>} if the release threw
 *       {@link LockConnectionException}: released locally, the server was not told) and ends. Needs {@link LockFeature#FENCING_TOKENS}.</dd>
 *   <dt>{@code lead <uri> <provider> <election> <id> <registerPort>}</dt>
 *   <dd>joins the election as participant {@code id} ({@link Leadership#join}) and prints {@code JOINED <id>};
 *       whenever elected it tells the {@link FencedRegister} {@code ACQUIRED <id> <token>} and prints
 *       {@code ELECTED <token>}, and when told to stop {@code ENDED <id> <token> <reason>} and
 *       {@code STOPPED <token> <reason>}. {@code close} on standard input, or its end, closes the participant;
 *       then it prints {@code CLOSED} and ends.</dd>
 * </dl>
 * {@code <kind>} is {@code mutex}, {@code non-reentrant} (or {@code non-reentrant-mutex}), {@code write},
 * {@code read} or {@code semaphore} (of one permit). Any failure prints {@code ERROR <exception>} and exits
 * with {@value #EXIT_ERROR}; the stack trace goes to standard error.
 */
public final class HolderMain {
    /** Exit value after a failure. */
    public static final int EXIT_ERROR = 2;
    /** Exit value when two holders met in the critical section. */
    public static final int EXIT_OVERLAP = 3;
    /** Exit value for bad arguments. */
    public static final int EXIT_USAGE = 64;
    /** How long one acquisition may wait. */
    public static final int WAIT_SECONDS = 60;

    /** A pause of the watch thread longer than this is a jump of the clock, for {@code guard}. */
    public static final long JUMP_MS = 500;

    /** The file that exists while someone is inside the critical section. */
    static final String MARKER = "holder";
    /** The file that counts the passes through the critical section. */
    public static final String COUNTER = "counter";

    private HolderMain() {
    }

    /**
     * @param args see the class description
     */
    public static void main(String[] args) {
        if (args.length < 5 || !(args[0].equals("hold") && args.length % 2 == 1
                || args[0].equals("hammer") && args.length == 7 || args[0].equals("guard") && args.length == 7
                || args[0].equals("lead") && args.length == 6)) {
            System.err.println("usage: hold <uri> <provider> <lock> <kind> [<lock> <kind> ...] | hammer <uri> "
                    + "<provider> <lock> <kind> <n> <dir> | guard <uri> <provider> <lock> <kind> <registerPort> <client>"
                    + " | lead <uri> <provider> <election> <id> <registerPort>");
            System.exit(EXIT_USAGE);
        }
        int exit;
        try (LockService service = Locks.open(args[1], args[2])) {
            BufferedReader in = new BufferedReader(new InputStreamReader(System.in, StandardCharsets.UTF_8));
            Acquirable lock = args[0].equals("lead") ? null : lock(service, args[3], args[4]);
            switch (args[0]) {
                case "lead":
                    exit = lead(service, args[3], args[4], Integer.parseInt(args[5]), in);
                    break;
                case "hold":
                    exit = args.length == 5 ? hold(service, lock, in) : holdAll(service, args, in);
                    break;
                case "guard":
                    exit = guard(lock, Integer.parseInt(args[5]), args[6], in);
                    break;
                default:
                    exit = hammer(lock, Integer.parseInt(args[5]), Path.of(args[6]), in);
                    break;
            }
        } catch (Exception | Error e) {
            e.printStackTrace();
            say("ERROR " + e);
            exit = EXIT_ERROR;
        }
        System.exit(exit);
    }

    /**
     * @param service the service
     * @param name    the lock name
     * @param kind    {@code mutex}, {@code non-reentrant} ({@code non-reentrant-mutex}), {@code write}, {@code read}
     *                or {@code semaphore}
     * @return the lock of that kind (a semaphore of one permit)
     * @throws IllegalArgumentException for another kind
     */
    public static Acquirable lock(LockService service, String name, String kind) {
        switch (kind.toLowerCase(Locale.ROOT)) {
            case "mutex":
                return service.mutex(name);
            case "non-reentrant":
            case "non-reentrant-mutex":
                return service.nonReentrantMutex(name);
            case "write":
                return service.readWriteLock(name).writeLock();
            case "read":
                return service.readWriteLock(name).readLock();
            case "semaphore":
                return service.semaphore(name, 1);
            default:
                throw new IllegalArgumentException("kind is none of mutex, non-reentrant, write, read, semaphore: "
                        + kind);
        }
    }

    /** {@code hold} with several locks: each acquired in a thread of its own, all released on {@code release}. */
    private static int holdAll(LockService service, String[] args, BufferedReader in) throws IOException {
        List<Lease> held = new CopyOnWriteArrayList<>();
        for (int i = 3; i < args.length; i += 2) {
            String name = args[i];
            Acquirable lock = lock(service, name, args[i + 1]);
            Thread acquirer = new Thread(() -> {
                try {
                    Lease lease = lock.acquire(Duration.ofSeconds(WAIT_SECONDS));
                    held.add(lease);
                    say("HELD " + (service.features().contains(LockFeature.FENCING_TOKENS) ? lease.fencingToken()
                            : "none") + " " + name);
                } catch (Exception e) {
                    e.printStackTrace();
                    say("ERROR " + e);
                }
            }, "hold-" + name);
            acquirer.setDaemon(true);
            acquirer.start();
        }
        for (String line = in.readLine(); line != null; line = in.readLine()) {
            if (line.equals("release")) {
                held.forEach(Lease::release);
                say("RELEASED");
                return 0;
            }
        }
        return 0; // the parent is gone; closing the service frees the locks
    }

    private static int hold(LockService service, Acquirable lock, BufferedReader in)
            throws IOException, InterruptedException {
        Lease lease = lock.acquire(Duration.ofSeconds(WAIT_SECONDS));
        say("HELD " + (service.features().contains(LockFeature.FENCING_TOKENS) ? lease.fencingToken() : "none"));
        for (String line = in.readLine(); line != null; line = in.readLine()) {
            if (line.equals("release")) {
                say("RELEASING " + lease.state());
                lease.release();
                say("RELEASED");
                return 0;
            }
        }
        return 0; // the parent is gone; closing the service frees the lock
    }

    private static int guard(Acquirable lock, int register, String client, BufferedReader in)
            throws IOException, InterruptedException {
        Lease lease = lock.acquire(Duration.ofSeconds(WAIT_SECONDS));
        long token = lease.fencingToken();
        FencedRegister.request(register, "ACQUIRED " + client + " " + token);
        say("HELD " + token);
        try (HoldWatch watch = new HoldWatch(
                (who, t, state) -> FencedRegister.request(register, state == LeaseState.HELD
                        ? "ACQUIRED " + who + " " + t : "ENDED " + who + " " + t + " " + state),
                JUMP_MS)) {
            watch.watch(client, token, lease);
            for (String line = in.readLine(); line != null; line = in.readLine()) {
                String[] words = line.split(" ");
                switch (words[0]) {
                    case "jump":
                        long least = words.length > 1 ? Long.parseLong(words[1]) : JUMP_MS;
                        long deadline = System.nanoTime() + Duration.ofSeconds(10).toNanos();
                        while (jumpMs(watch) < least && System.nanoTime() - deadline < 0) {
                            Thread.sleep(5); // the watch thread checks first after a resume; wait for its note
                        }
                        say("JUMP " + (jumpMs(watch) < least ? "none" : watch.afterJump()));
                        break;
                    case "state":
                        say("STATE " + lease.state());
                        break;
                    case "write":
                        say("WRITE " + FencedRegister.request(register, "WRITE " + client + " " + token));
                        break;
                    case "release":
                        try {
                            lease.release();
                            say("RELEASED");
                        } catch (LockConnectionException e) {
                            // allowed: released locally, the server frees it when the session or lease ends
                            say("RELEASED unconfirmed: " + e.getMessage());
                        }
                        return 0;
                    default:
                        say("ERROR unknown command: " + line);
                        return EXIT_ERROR;
                }
            }
        }
        return 0;
    }

    private static int lead(LockService service, String election, String id, int register, BufferedReader in)
            throws IOException {
        LeaderListener listener = new LeaderListener() {
            @Override
            public void elected(Term term) {
                FencedRegister.request(register, "ACQUIRED " + id + " " + term.fencingToken());
                say("ELECTED " + term.fencingToken());
            }

            @Override
            public void stopLeading(Term term, StopReason reason) {
                FencedRegister.request(register, "ENDED " + id + " " + term.fencingToken() + " " + reason);
                say("STOPPED " + term.fencingToken() + " " + reason);
            }
        };
        try (Participant participant = Leadership.join(service, election, id, listener)) {
            say("JOINED " + participant.id());
            String line = in.readLine(); // blocks while the participant runs
            if (line != null && !line.equals("close")) {
                say("ERROR unknown command: " + line);
                return EXIT_ERROR;
            }
        } // on close, or when the parent is gone: the participant leaves the election
        say("CLOSED");
        return 0;
    }

    private static long jumpMs(HoldWatch watch) {
        String seen = watch.afterJump();
        return seen == null ? -1 : Long.parseLong(seen.substring(0, seen.indexOf(' ')));
    }

    private static int hammer(Acquirable lock, int n, Path dir, BufferedReader in)
            throws IOException, InterruptedException {
        say("READY");
        String go = in.readLine();
        if (!"go".equals(go)) {
            say("ERROR expected 'go', got " + go);
            return EXIT_ERROR;
        }
        for (int i = 0; i < n; i++) {
            try (Lease lease = lock.acquire(Duration.ofSeconds(WAIT_SECONDS))) {
                if (!guardedIncrement(dir)) {
                    say("OVERLAP " + i);
                    return EXIT_OVERLAP;
                }
            }
        }
        say("DONE " + n);
        return 0;
    }

    /**
     * The critical section of the exclusion contracts, shared by every process: creates the marker file in
     * {@code dir} (creation fails if it exists, across processes), adds one to the counter file, deletes the
     * marker. Two holders at once show as a marker that is already there, or gone before its owner deletes it.
     *
     * @param dir a directory shared by every participant
     * @return false if another holder was inside the critical section
     * @throws IOException if the files cannot be used
     */
    public static boolean guardedIncrement(Path dir) throws IOException {
        Path marker = dir.resolve(MARKER);
        try {
            Files.createFile(marker);
        } catch (FileAlreadyExistsException e) {
            return false;
        }
        Path counter = dir.resolve(COUNTER);
        int count = Files.exists(counter) ? Integer.parseInt(Files.readString(counter).strip()) : 0;
        Files.writeString(counter, Integer.toString(count + 1));
        try {
            Files.delete(marker);
        } catch (NoSuchFileException e) {
            return false;
        }
        return true;
    }

    /**
     * @param dir a directory given to {@link #guardedIncrement(Path)}
     * @return how many passes it counted
     * @throws IOException if the counter cannot be read
     */
    public static int count(Path dir) throws IOException {
        Path counter = dir.resolve(COUNTER);
        return Files.exists(counter) ? Integer.parseInt(Files.readString(counter).strip()) : 0;
    }

    private static void say(String line) {
        System.out.println(line);
        System.out.flush();
    }
}
