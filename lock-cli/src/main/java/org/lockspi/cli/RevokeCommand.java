package org.lockspi.cli;

import java.io.PrintWriter;
import java.time.Duration;
import java.util.concurrent.Callable;
import org.lockspi.LockService;
import org.lockspi.LockTimeoutException;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.Spec;

/**
 * {@code revoke <uri> <name> <token>}: ends a holder's lease by its fencing token (spec §27), for an operator with a
 * stuck holder. The holder's service must have opted in ({@code revocable=true}); the tool waits until it let go.
 */
@Command(name = "revoke", mixinStandardHelpOptions = true, versionProvider = LockCli.Version.class,
        description = {"Ends the lease of the holder with the given fencing token (see 'holders'): its service "
                + "must have been opened with revocable=true. The holder's lease turns LOST, its listeners are "
                + "told, and then the lock passes to the next waiter. A holder whose client is dead or cut off "
                + "never hears of it; its lock passes on at its session or lease end. Logs an audit line."},
        exitCodeOnInvalidInput = LockCli.USAGE, exitCodeOnExecutionException = LockCli.FAILURE,
        exitCodeListHeading = "%nExit codes:%n", exitCodeList = {
                RevokeCommand.EXIT_REVOKED, RevokeCommand.EXIT_NO_HOLDER, LockCli.EXIT_USAGE,
                LockCli.EXIT_UNREACHABLE, RevokeCommand.EXIT_OTHER})
final class RevokeCommand implements Callable<Integer> {
    static final String EXIT_REVOKED = "0:revoked: the holder let go";
    static final String EXIT_NO_HOLDER = "1:no holder of the lock has that token (it released, or the token is "
            + "wrong); nothing was done";
    static final String EXIT_OTHER = "4:not revoked: the holder's service did not opt in (revocable=true), the "
            + "holder still held after --timeout, or any other error";

    @Mixin
    private ConnectionOptions connection;

    @Parameters(index = "1", paramLabel = "<name>", description = "the lock's name, e.g. jobs/nightly-report")
    private String name;

    @Parameters(index = "2", paramLabel = "<token>", description = "the holder's fencing token, as 'holders' "
            + "shows it")
    private long token;

    @Option(names = "--timeout", paramLabel = "DURATION", defaultValue = "PT30S", converter = Durations.class,
            description = "how long to wait for the holder to let go (30s, 500ms, PT1M; default 30s)")
    private Duration timeout;

    @Option(names = "--as", paramLabel = "WHO", description = "who asks, for the audit line and the holder's log "
            + "(default: user@host pid N of this process)")
    private String requestedBy;

    @Spec
    private CommandSpec spec;

    @Override
    public Integer call() {
        boolean revoked;
        try (LockService service = connection.open()) {
            revoked = requestedBy == null ? service.revoke(name, token, timeout)
                    : service.revoke(name, token, timeout, requestedBy);
        } catch (LockTimeoutException | IllegalStateException e) {
            // not revoked, for a reason the operator must read: the message says which
            spec.commandLine().getErr().println("lockspi: " + e.getMessage());
            return LockCli.FAILURE;
        }
        PrintWriter out = spec.commandLine().getOut();
        String outcome = revoked ? "revoked" : "no-holder";
        out.println(connection.json
                ? "{\"name\":" + Output.quote(name) + ",\"token\":" + token + ",\"outcome\":\"" + outcome + "\"}"
                : (revoked ? "revoked: " : "no holder with that token: ") + name + " token " + token);
        out.flush();
        return revoked ? LockCli.OK : LockCli.FREE;
    }

    /** Reads {@code 30s}, {@code 500ms}, {@code 2m}, {@code 1h} or an ISO-8601 duration, as lock URIs do. */
    static final class Durations implements picocli.CommandLine.ITypeConverter<Duration> {
        private static final java.util.regex.Pattern SHORT = java.util.regex.Pattern.compile("(\\d{1,12})(ms|s|m|h)");

        @Override
        public Duration convert(String value) {
            java.util.regex.Matcher m = SHORT.matcher(value);
            if (!m.matches()) {
                try {
                    return Duration.parse(value);
                } catch (java.time.format.DateTimeParseException e) {
                    throw new picocli.CommandLine.TypeConversionException("not a duration (30s, 500ms, 2m, PT1M): '"
                            + value + "'");
                }
            }
            long n = Long.parseLong(m.group(1));
            switch (m.group(2)) {
                case "ms":
                    return Duration.ofMillis(n);
                case "s":
                    return Duration.ofSeconds(n);
                case "m":
                    return Duration.ofMinutes(n);
                default:
                    return Duration.ofHours(n);
            }
        }
    }
}
