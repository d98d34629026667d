package org.lockspi.bench.internal;

import java.nio.file.Path;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * A bench runner's command line: a mode ({@code --full}, the default, {@code --quick} or {@code --smoke}),
 * {@code --report PATH} and the runner's own options with a value ({@code --name VALUE}). Also sets what every
 * runner wants before it starts: headless AWT, and clients' logs at WARN unless told otherwise.
 */
public final class CommandLine {
    private final String mode;
    private final Path report;
    private final Map<String, String> options;

    private CommandLine(String mode, Path report, Map<String, String> options) {
        this.mode = mode;
        this.report = report;
        this.options = options;
    }

    /**
     * @param args   the arguments
     * @param valued the runner's own options that take a value, e.g. {@code --long-run}
     * @return the parsed line
     * @throws IllegalArgumentException on an unknown argument or an option without its value
     */
    public static CommandLine parse(String[] args, String... valued) {
        System.setProperty("java.awt.headless", "true");
        if (System.getProperty("org.slf4j.simpleLogger.defaultLogLevel") == null) {
            System.setProperty("org.slf4j.simpleLogger.defaultLogLevel", "warn");
        }
        List<String> own = Arrays.asList(valued);
        String mode = "full";
        Path report = Path.of("docs", "tradeoffs.md");
        Map<String, String> options = new LinkedHashMap<>();
        for (int i = 0; i < args.length; i++) {
            String a = args[i];
            if (a.equals("--full") || a.equals("--quick") || a.equals("--smoke")) {
                mode = a.substring(2);
            } else if (a.equals("--report") || own.contains(a)) {
                if (i + 1 == args.length) {
                    throw new IllegalArgumentException(a + " needs a value");
                }
                if (a.equals("--report")) {
                    report = Path.of(args[++i]);
                } else {
                    options.put(a, args[++i]);
                }
            } else {
                throw new IllegalArgumentException("unknown argument, expected --full, --quick, --smoke, --report PATH"
                        + (own.isEmpty() ? "" : " or " + String.join(", ", own) + " with a value") + ": " + a);
            }
        }
        return new CommandLine(mode, report, options);
    }

    /** @return full, quick or smoke */
    public String mode() {
        return mode;
    }

    /** @return where the report goes */
    public Path report() {
        return report;
    }

    /** @return the value of one of the runner's own options, or null if not given */
    public String option(String name) {
        return options.get(name);
    }
}
