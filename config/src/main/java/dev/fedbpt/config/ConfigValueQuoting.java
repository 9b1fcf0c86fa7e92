package dev.fedbpt.config;

/** Quotes a raw command-line value as a HOCON string, so paths with ':' or '/' survive parsing. */
final class ConfigValueQuoting {
    private ConfigValueQuoting() {}

    static String quote(String raw) {
        StringBuilder out = new StringBuilder("\"");
        for (char ch : raw.toCharArray()) {
            if (ch == '"' || ch == '\\') {
                out.append('\\');
            }
            out.append(ch);
        }
        return out.append('"').toString();
    }
}
