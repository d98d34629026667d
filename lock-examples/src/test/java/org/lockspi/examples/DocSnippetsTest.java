package org.lockspi.examples;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.io.StringWriter;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import javax.tools.DiagnosticCollector;
import javax.tools.JavaCompiler;
import javax.tools.JavaFileObject;
import javax.tools.SimpleJavaFileObject;
import javax.tools.ToolProvider;
import org.junit.jupiter.api.DynamicTest;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestFactory;
import org.junit.jupiter.api.io.TempDir;

/**
 * The Java in the documentation compiles against the current API, as a reader would paste it: every
 * {@code ```java} block of the top-level README.md, and the blocks of docs/*.md and the modules' README.md files
 * that a {@code <!-- compile -->} line marks.
 *
 * <p>An unmarked block with a top-level type is a compilation unit and must compile exactly as written, imports
 * included. Any other block must say, on the line before it, what it is pasted into:
 * {@code <!-- compile: members of T -->} (declarations inside a subclass of {@code T}) or
 * {@code <!-- compile: statements -->} (the body of a method that declares no exception); fragments are given
 * the imports {@link #FRAGMENT_IMPORTS} and nothing else, so every name they use is the API's or their own.
 */
class DocSnippetsTest {
    /** What a fragment may use without importing it; a compilation unit imports what it uses itself. */
    static final String FRAGMENT_IMPORTS = String.join("\n",
            "import java.time.Duration;",
            "import java.util.Map;",
            "import java.util.Optional;",
            "import org.lockspi.*;",
            "import org.lockspi.leader.*;",
            "import org.lockspi.spi.*;",
            "import org.lockspi.tck.*;",
            "");

    private static final Pattern FENCE = Pattern.compile("^\\s*```java\\s*$");
    private static final Pattern MARK = Pattern.compile("^\\s*<!-- compile(?::\\s*(.*?))?\\s*-->\\s*$");
    private static final Pattern TOP_LEVEL_TYPE = Pattern.compile(
            "(?m)^(?:public\\s+|final\\s+|abstract\\s+)*(?:class|interface|record|enum)\\s+(\\w+)");
    private static final Pattern MEMBERS_OF = Pattern.compile("members of ([\\w.]+)");

    /** One block of Java in a document. */
    record Snippet(Path file, int line, String mark, String code) {
        @Override
        public String toString() {
            return file.getFileName() + ":" + line;
        }
    }

    @TestFactory
    Stream<DynamicTest> everyMarkedBlockCompiles() throws IOException {
        List<Snippet> snippets = snippets();
        assertFalse(snippets.isEmpty(), "no Java block found in " + repository());
        return snippets.stream().map(s -> DynamicTest.dynamicTest(s.toString(), () -> assertCompiles(s)));
    }

    @Test
    void aFragmentThatUsesAnUndefinedNameFails(@TempDir Path dir) {
        Snippet bad = new Snippet(dir.resolve("README.md"), 1, "statements", "store.write(1L);");
        assertFalse(compile(bad).isEmpty(), "an undefined name must not compile");
        Snippet unchecked = new Snippet(dir.resolve("README.md"), 1, "statements",
                "Locks.open(\"mem://x\").mutex(\"a\").acquire();");
        assertFalse(compile(unchecked).isEmpty(), "an unhandled InterruptedException must not compile");
        Snippet good = new Snippet(dir.resolve("README.md"), 1, "statements",
                "Optional<Lease> none = Optional.empty();");
        assertEquals("", compile(good));
    }

    @Test
    void theQuickStartIsACompleteProgram() throws IOException {
        Snippet first = snippets().stream().filter(s -> s.file().getFileName().toString().equals("README.md")
                && s.file().getParent().equals(repository())).findFirst().orElse(null);
        assertNotNull(first, "README.md has no Java block");
        Matcher type = TOP_LEVEL_TYPE.matcher(first.code());
        assertTrue(type.find() && first.code().contains("public static void main(String[] args)"),
                "the README's first Java block is a program with a main method: " + first);
    }

    private static void assertCompiles(Snippet snippet) {
        String errors = compile(snippet);
        assertEquals("", errors, snippet + " does not compile as pasted:\n" + snippet.code());
    }

    /** @return the compiler's errors, or "" */
    static String compile(Snippet snippet) {
        String source;
        String className;
        Matcher type = TOP_LEVEL_TYPE.matcher(snippet.code());
        if (snippet.mark() == null && type.find()) {
            source = snippet.code();
            className = type.group(1);
        } else if (snippet.mark() != null && MEMBERS_OF.matcher(snippet.mark()).matches()) {
            Matcher of = MEMBERS_OF.matcher(snippet.mark());
            of.matches();
            className = "Snippet";
            source = FRAGMENT_IMPORTS + "abstract class Snippet extends " + of.group(1) + " {\n" + snippet.code()
                    + "\n}\n";
        } else if ("statements".equals(snippet.mark())) {
            className = "Snippet";
            source = FRAGMENT_IMPORTS + "class Snippet {\n    void run() {\n" + snippet.code() + "\n    }\n}\n";
        } else {
            return snippet + ": a fragment needs <!-- compile: statements --> or <!-- compile: members of T --> "
                    + "on the line before it (got " + snippet.mark() + ")";
        }
        JavaCompiler compiler = ToolProvider.getSystemJavaCompiler();
        DiagnosticCollector<JavaFileObject> diagnostics = new DiagnosticCollector<>();
        JavaFileObject file = new SimpleJavaFileObject(URI.create("string:///" + className + ".java"),
                JavaFileObject.Kind.SOURCE) {
            @Override
            public CharSequence getCharContent(boolean ignoreEncodingErrors) {
                return source;
            }
        };
        Path out;
        try {
            out = Files.createTempDirectory("lockspi-snippet-");
        } catch (IOException e) {
            throw new IllegalStateException("no temporary directory", e);
        }
        StringWriter messages = new StringWriter();
        boolean ok = compiler.getTask(messages, null, diagnostics, List.of("-d", out.toString(), "-proc:none",
                "-classpath", System.getProperty("java.class.path"), "--release", "17"), null, List.of(file)).call();
        StringBuilder errors = new StringBuilder();
        diagnostics.getDiagnostics().stream().filter(d -> d.getKind() == javax.tools.Diagnostic.Kind.ERROR)
                .forEach(d -> errors.append("  line ").append(d.getLineNumber()).append(": ")
                        .append(d.getMessage(null)).append('\n'));
        return ok ? "" : errors.length() > 0 ? errors.toString() : messages.toString();
    }

    static Path repository() {
        Path dir = Path.of("").toAbsolutePath();
        while (dir != null && !Files.exists(dir.resolve("lock-api"))) {
            dir = dir.getParent();
        }
        assertNotNull(dir, "the repository root (with lock-api) above " + Path.of("").toAbsolutePath());
        return dir;
    }

    static List<Snippet> snippets() throws IOException {
        Path root = repository();
        List<Path> files = new ArrayList<>();
        files.add(root.resolve("README.md"));
        try (Stream<Path> docs = Files.list(root.resolve("docs"))) {
            docs.filter(p -> p.toString().endsWith(".md")).sorted().forEach(files::add);
        }
        try (Stream<Path> modules = Files.list(root)) {
            modules.map(m -> m.resolve("README.md")).filter(Files::isRegularFile).sorted().forEach(files::add);
        }
        List<Snippet> snippets = new ArrayList<>();
        for (Path file : files) {
            boolean everyBlock = file.equals(root.resolve("README.md"));
            List<String> lines = Files.readAllLines(file, StandardCharsets.UTF_8);
            for (int i = 0; i < lines.size(); i++) {
                if (!FENCE.matcher(lines.get(i)).matches()) {
                    continue;
                }
                Matcher mark = i > 0 ? MARK.matcher(lines.get(i - 1)) : null;
                boolean marked = mark != null && mark.matches();
                StringBuilder code = new StringBuilder();
                int start = i + 1;
                for (i++; i < lines.size() && !lines.get(i).strip().equals("```"); i++) {
                    code.append(lines.get(i)).append('\n');
                }
                if (everyBlock || marked) {
                    snippets.add(new Snippet(file, start, marked ? mark.group(1) : null, code.toString()));
                }
            }
        }
        return snippets;
    }
}
