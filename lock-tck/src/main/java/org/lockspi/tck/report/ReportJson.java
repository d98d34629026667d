package org.lockspi.tck.report;

import java.util.List;
import java.util.Map;

/** The conformance report as JSON, written by hand so that the kit needs no JSON library. */
final class ReportJson {
    private ReportJson() {
    }

    /** One test's line of the report. */
    static final class Test {
        final String name;
        final String rule;
        final String status;
        final String detail;
        final String diagnosis;

        Test(String name, String rule, String status, String detail, String diagnosis) {
            this.name = name;
            this.rule = rule;
            this.status = status;
            this.detail = detail;
            this.diagnosis = diagnosis;
        }
    }

    static String render(String testClass, String provider, String[] features, String profile, String backend,
                         String[] capabilities, Map<String, String> allowed, String verdict, List<String> verdicts,
                         List<Test> tests) {
        StringBuilder out = new StringBuilder("{\n");
        field(out, "testClass", testClass).append(",\n");
        field(out, "provider", provider).append(",\n");
        out.append("  \"features\": ").append(array(features)).append(",\n");
        field(out, "profile", profile).append(",\n");
        field(out, "backend", backend).append(",\n");
        out.append("  \"capabilities\": ").append(array(capabilities)).append(",\n");
        out.append("  \"allowedUnverified\": {");
        String separator = "";
        for (Map.Entry<String, String> e : allowed.entrySet()) {
            out.append(separator).append(quote(e.getKey())).append(": ").append(quote(e.getValue()));
            separator = ", ";
        }
        out.append("},\n");
        field(out, "verdict", verdict).append(",\n");
        out.append("  \"verdictLines\": ").append(array(verdicts.toArray(new String[0]))).append(",\n");
        out.append("  \"tests\": [");
        separator = "\n";
        for (Test test : tests) {
            out.append(separator).append("    {\"name\": ").append(quote(test.name)).append(", \"rule\": ")
                    .append(quote(test.rule)).append(", \"status\": ").append(quote(test.status))
                    .append(", \"detail\": ").append(quote(test.detail)).append(", \"diagnosis\": ")
                    .append(quote(test.diagnosis)).append('}');
            separator = ",\n";
        }
        return out.append("\n  ]\n}\n").toString();
    }

    private static StringBuilder field(StringBuilder out, String name, String value) {
        return out.append("  ").append(quote(name)).append(": ").append(quote(value));
    }

    private static String array(String[] values) {
        if (values == null) {
            return "null";
        }
        StringBuilder out = new StringBuilder("[");
        for (int i = 0; i < values.length; i++) {
            out.append(i == 0 ? "" : ", ").append(quote(values[i]));
        }
        return out.append(']').toString();
    }

    static String quote(String value) {
        if (value == null) {
            return "null";
        }
        StringBuilder out = new StringBuilder("\"");
        for (int i = 0; i < value.length(); i++) {
            char c = value.charAt(i);
            switch (c) {
                case '"':
                    out.append("\\\"");
                    break;
                case '\\':
                    out.append("\\\\");
                    break;
                case '\n':
                    out.append("\\n");
                    break;
                case '\r':
                    out.append("\\r");
                    break;
                case '\t':
                    out.append("\\t");
                    break;
                default:
                    if (c < 0x20) {
                        out.append(String.format("\\u%04x", (int) c));
                    } else {
                        out.append(c);
                    }
            }
        }
        return out.append('"').toString();
    }
}
