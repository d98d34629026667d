package org.lockspi.cli;

import java.io.IOException;
import java.io.InputStream;
import java.io.PrintStream;
import java.io.PrintWriter;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.util.Properties;
import java.util.stream.Collectors;
import org.lockspi.LockConnectionException;
import org.lockspi.Locks;
import org.lockspi.ProviderSelectionException;
import picocli.CommandLine;
import picocli.CommandLine.Command;

/**
 * The {@code lockspi} command line: what the server shows of a lock, for an operator.
 *
 * <pre>
 * lockspi holders &lt;uri&gt; &lt;name&gt; [--provider NAME] [--json]   who holds a lock, since when, with which token; how many wait
 * lockspi list &lt;uri&gt; [prefix] [--provider NAME] [--json]    the locks with a holder or a waiter, by name
 * lockspi revoke &lt;uri&gt; &lt;name&gt; &lt;token&gt; [--timeout D] [--as WHO]   ends that holder's lease (it opted in)
 * </pre>
 *
 * <p>Exit codes, distinct so that a script can tell them apart: {@value #OK} the lock has holders or waiters
 * ({@code holders}) or locks were listed ({@code list}); {@value #FREE} the lock is free, nothing was listed;
 * {@value #USAGE} a usage error (arguments, URI, name, provider); {@value #UNREACHABLE} the server could not be
 * reached or a read failed on the connection; {@value #FAILURE} any other error. {@code revoke} exits {@value #OK}
 * when the holder let go, {@value #FREE} when no holder has the token, {@value #FAILURE} when it was refused (the holder
 * did not opt in) or the holder still held after {@code --timeout}. A password in the URI is never
 * printed: the tool shows the URI with it masked, and the library's messages never contain it.
 */
@Command(name = "lockspi", mixinStandardHelpOptions = true, versionProvider = LockCli.Version.class,
        subcommands = {HoldersCommand.class, ListCommand.class, RevokeCommand.class,
                CommandLine.HelpCommand.class},
        description = "Shows who holds a distributed lock of lockspi, since when and with which fencing token, "
                + "how many wait, and which locks are held (read only: it takes no lock); revokes a holder that "
                + "opted in.",
        exitCodeOnInvalidInput = LockCli.USAGE, exitCodeOnExecutionException = LockCli.FAILURE,
        exitCodeListHeading = "%nExit codes:%n", exitCodeList = {
                LockCli.EXIT_OK, LockCli.EXIT_FREE, LockCli.EXIT_USAGE, LockCli.EXIT_UNREACHABLE,
                LockCli.EXIT_FAILURE})
public final class LockCli implements Runnable {
    /** Exit code: the lock has holders or waiters, or locks were listed. */
    public static final int OK = 0;
    /** Exit code: the lock is free (no holder, no waiter), or nothing was listed. */
    public static final int FREE = 1;
    /** Exit code: a usage error: arguments, URI, lock name or provider. */
    public static final int USAGE = 2;
    /** Exit code: the server could not be reached, or a read failed on the connection. */
    public static final int UNREACHABLE = 3;
    /** Exit code: any other error (e.g. a provider without inspection, a failure of the server). */
    public static final int FAILURE = 4;

    // the --help lines of each code, shared by every command
    static final String EXIT_OK = "0:held: the lock has holders or waiters (list: locks were listed)";
    static final String EXIT_FREE = "1:free: the lock has no holder and no waiter (list: none listed)";
    static final String EXIT_USAGE = "2:usage error: arguments, URI, lock name or provider";
    static final String EXIT_UNREACHABLE = "3:unreachable: no answer within the bounds (connectTimeout="
            + ConnectionOptions.DEFAULT_CONNECT_TIMEOUT + " unless the URI says otherwise), or a read failed";
    static final String EXIT_FAILURE = "4:any other error";

    @CommandLine.Spec
    private CommandLine.Model.CommandSpec spec;

    /**
     * Runs the tool and exits with its exit code.
     *
     * @param args the command line
     */
    public static void main(String[] args) {
        System.exit(run(args, System.out, System.err));
    }

    /**
     * Runs the tool.
     *
     * @param args the command line
     * @param out  where results go
     * @param err  where errors and usage go
     * @return the exit code: {@link #OK}, {@link #FREE}, {@link #USAGE}, {@link #UNREACHABLE} or
     *         {@link #FAILURE}
     */
    public static int run(String[] args, PrintStream out, PrintStream err) {
        PrintWriter outWriter = new PrintWriter(new java.io.OutputStreamWriter(out, StandardCharsets.UTF_8), true);
        PrintWriter errWriter = new PrintWriter(new java.io.OutputStreamWriter(err, StandardCharsets.UTF_8), true);
        CommandLine cli = new CommandLine(new LockCli())
                .setOut(outWriter)
                .setErr(errWriter)
                .setExecutionExceptionHandler((e, commandLine, parsed) -> {
                    commandLine.getErr().println("lockspi: " + (e.getMessage() == null ? e : e.getMessage()));
                    return exitCode(e);
                });
        try {
            return cli.execute(args);
        } finally {
            outWriter.flush();
            errWriter.flush();
        }
    }

    /** The exit code of a failure while a command ran: the server's, the caller's, or another. */
    static int exitCode(Exception e) {
        if (e instanceof LockConnectionException) {
            return UNREACHABLE;
        }
        if (e instanceof IllegalArgumentException || e instanceof ProviderSelectionException) {
            return USAGE;
        }
        return FAILURE;
    }

    @Override
    public void run() {
        throw new CommandLine.ParameterException(spec.commandLine(), "a command is required: holders, list or revoke");
    }

    /** {@code --version}: the tool's version, as the build wrote it, and the installed providers. */
    static final class Version implements CommandLine.IVersionProvider {
        @Override
        public String[] getVersion() {
            return new String[] {"lockspi " + version(),
                    "providers: " + Locks.providers().stream().map(p -> p.name() + " " + p.version()
                            + " (" + p.schemes().stream().sorted().collect(Collectors.joining(", ")) + ")").collect(Collectors.joining("; ")),
                    "java: " + System.getProperty("java.version") + " (" + System.getProperty("java.home") + ")"};
        }
    }

    /** @return the project version the build filtered into {@code version.properties} */
    static String version() {
        Properties p = new Properties();
        try (InputStream in = LockCli.class.getResourceAsStream("version.properties")) {
            if (in == null) {
                throw new IllegalStateException("version.properties is missing from the tool's jar");
            }
            p.load(in);
        } catch (IOException e) {
            throw new UncheckedIOException("version.properties of the tool cannot be read", e);
        }
        return p.getProperty("version");
    }
}
