package org.lockspi.cli;

import java.io.PrintStream;
import java.io.PrintWriter;
import java.nio.charset.StandardCharsets;
import java.util.stream.Collectors;
import org.lockspi.LockConnectionException;
import org.lockspi.Locks;
import picocli.CommandLine;
import picocli.CommandLine.Command;

/**
 * The {@code lockspi} command line: what the server shows of a lock, for an operator.
 *
 * <pre>
 * lockspi holders &lt;uri&gt; &lt;name&gt; [--provider NAME] [--json]   who holds a lock, since when, with which token; how many wait
 * lockspi list &lt;uri&gt; [prefix] [--provider NAME] [--json]    the locks with a holder or a waiter, by name
 * </pre>
 *
 * <p>Exit codes: {@value #OK} the lock has state (holders) or locks were listed (list); {@value #NOT_FOUND} the
 * lock has no state, nothing was listed, or the command line, URI, name or provider is wrong (a usage error); and
 * {@value #CONNECTION_FAILURE} the server could not be reached or failed. A password in the URI is never printed:
 * the tool shows the URI with it masked, and the library's messages never contain it.
 */
@Command(name = "lockspi", mixinStandardHelpOptions = true, versionProvider = LockCli.Version.class,
        subcommands = {HoldersCommand.class, ListCommand.class, CommandLine.HelpCommand.class},
        description = "Shows who holds a distributed lock of lockspi, since when and with which fencing token, "
                + "how many wait, and which locks are held. Read only: it takes no lock.",
        exitCodeOnInvalidInput = LockCli.NOT_FOUND, exitCodeOnExecutionException = LockCli.CONNECTION_FAILURE,
        exitCodeListHeading = "%nExit codes:%n",
        exitCodeList = {"0:the lock has holders or waiters; locks were listed",
                "1:no state for that lock, nothing listed, or a usage error (arguments, URI, name, provider)",
                "2:the server could not be reached or failed"})
public final class LockCli implements Runnable {
    /** Exit code: the lock has state, or locks were listed. */
    public static final int OK = 0;
    /** Exit code: no state, nothing listed, or a usage error. */
    public static final int NOT_FOUND = 1;
    /** Exit code: the server could not be reached or failed. */
    public static final int CONNECTION_FAILURE = 2;

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
     * @return the exit code: {@link #OK}, {@link #NOT_FOUND} or {@link #CONNECTION_FAILURE}
     */
    public static int run(String[] args, PrintStream out, PrintStream err) {
        PrintWriter outWriter = new PrintWriter(new java.io.OutputStreamWriter(out, StandardCharsets.UTF_8), true);
        PrintWriter errWriter = new PrintWriter(new java.io.OutputStreamWriter(err, StandardCharsets.UTF_8), true);
        CommandLine cli = new CommandLine(new LockCli())
                .setOut(outWriter)
                .setErr(errWriter)
                .setExecutionExceptionHandler((e, commandLine, parsed) -> {
                    commandLine.getErr().println("lockspi: " + e.getMessage());
                    return exitCode(e);
                });
        try {
            return cli.execute(args);
        } finally {
            outWriter.flush();
            errWriter.flush();
        }
    }

    /** The exit code of a failure: the server's fault, or the caller's. */
    static int exitCode(Exception e) {
        return e instanceof LockConnectionException ? CONNECTION_FAILURE : NOT_FOUND;
    }

    @Override
    public void run() {
        throw new CommandLine.ParameterException(spec.commandLine(), "a command is required: holders or list");
    }

    /** {@code --version}: the tool's version and the installed providers. */
    static final class Version implements CommandLine.IVersionProvider {
        @Override
        public String[] getVersion() {
            String version = LockCli.class.getPackage().getImplementationVersion();
            return new String[] {"lockspi " + (version == null ? "(development build)" : version),
                    "providers: " + Locks.providers().stream().map(p -> p.name() + " " + p.version()
                            + " (" + String.join(", ", p.schemes()) + ")").collect(Collectors.joining("; "))};
        }
    }
}
