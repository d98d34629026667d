package org.lockspi.examples;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * The command line of an example: {@code --name=value} options and {@code --flag} switches, each at most once.
 * Every argument may also come as one string with spaces (as {@code -Dexec.args="--redis --no-lock"} passes
 * it), which is split. An unknown or repeated name, or a malformed value, is refused with the list of what is
 * accepted.
 */
final class ExampleArgs {
    private final String program;
    private final Map<String, String> values = new LinkedHashMap<>();

    private ExampleArgs(String program) {
        this.program = program;
    }

    /**
     * @param program  the example's name, for messages
     * @param args     the command line
     * @param options  the names that take a value
     * @param switches the names that take none
     * @return the parsed command line
     * @throws IllegalArgumentException for an unknown, repeated or malformed argument
     */
    static ExampleArgs parse(String program, String[] args, Set<String> options, Set<String> switches) {
        ExampleArgs parsed = new ExampleArgs(program);
        for (String arg : args) {
            for (String word : arg.strip().split("\\s+")) {
                if (!word.isEmpty()) {
                    parsed.add(word, options, switches);
                }
            }
        }
        return parsed;
    }

    private void add(String word, Set<String> options, Set<String> switches) {
        if (!word.startsWith("--")) {
            throw usage("not an option: '" + word + "'", options, switches);
        }
        int eq = word.indexOf('=');
        String name = eq < 0 ? word.substring(2) : word.substring(2, eq);
        String value = eq < 0 ? "" : word.substring(eq + 1);
        if (eq < 0 ? !switches.contains(name) : !options.contains(name)) {
            throw usage((options.contains(name) ? "option --" + name + " needs a value: '"
                    : switches.contains(name) ? "switch --" + name + " takes no value: '"
                    : "unknown option: '") + word + "'", options, switches);
        }
        if (eq >= 0 && value.isEmpty()) {
            throw usage("option --" + name + " has an empty value", options, switches);
        }
        if (values.putIfAbsent(name, value) != null) {
            throw usage("option --" + name + " given twice", options, switches);
        }
    }

    private IllegalArgumentException usage(String problem, Set<String> options, Set<String> switches) {
        List<String> accepted = new java.util.ArrayList<>();
        options.stream().sorted().forEach(o -> accepted.add("--" + o + "=..."));
        switches.stream().sorted().forEach(s -> accepted.add("--" + s));
        return new IllegalArgumentException(program + ": " + problem + "; accepted: " + String.join(" ", accepted));
    }

    /** @return whether the switch was given */
    boolean flag(String name) {
        return values.containsKey(name);
    }

    /** @return the option's value, or {@code defaultValue} */
    String value(String name, String defaultValue) {
        return values.getOrDefault(name, defaultValue);
    }

    /**
     * @return the option's value as an int within {@code [min, max]}, or {@code defaultValue}
     * @throws IllegalArgumentException if it is no number or out of range
     */
    int integer(String name, int defaultValue, int min, int max) {
        String text = values.get(name);
        if (text == null) {
            return defaultValue;
        }
        int n;
        try {
            n = Integer.parseInt(text);
        } catch (NumberFormatException e) {
            throw new IllegalArgumentException(program + ": --" + name + " is not a number: '" + text + "'", e);
        }
        if (n < min || n > max) {
            throw new IllegalArgumentException(program + ": --" + name + " is not in [" + min + ", " + max + "]: "
                    + n);
        }
        return n;
    }
}
