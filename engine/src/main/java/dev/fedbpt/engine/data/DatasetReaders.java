package dev.fedbpt.engine.data;

import java.io.IOException;
import java.io.Reader;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Pattern;

/**
 * Readers for the benchmark files FedBPT is evaluated on, plus a generic {@code label<TAB>text} format. These are the
 * only file I/O in the engine. Every reader streams its input line by line as UTF-8 and fails with a
 * {@link DatasetFormatException} naming the file and line on the first malformed record; blank lines are skipped and
 * an input without any example is an error.
 *
 * <p>The {@code Path} variants open and close the file; the {@code Reader} variants (for classpath resources) use
 * {@code source} as the file name in errors and leave closing the reader to the caller.
 */
public final class DatasetReaders {
    public static final List<String> SENTIMENT_LABELS = List.of("negative", "positive");
    public static final List<String> AG_NEWS_LABELS = List.of("World", "Sports", "Business", "Sci/Tech");

    private static final Pattern INTEGER = Pattern.compile("[+-]?\\d{1,9}");
    private static final Pattern BACKSLASH_RUN = Pattern.compile("\\\\+");
    private static final Pattern WHITESPACE_RUN = Pattern.compile("\\s+");

    private DatasetReaders() {
    }

    private interface Parse {
        Dataset read(Reader in, String source);
    }

    private static Dataset fromFile(Path file, Parse parse) {
        try (Reader in = Files.newBufferedReader(file, StandardCharsets.UTF_8)) {
            return parse.read(in, file.toString());
        } catch (IOException e) {
            throw new UncheckedIOException("cannot read dataset file " + file, e);
        }
    }

    private static String fileName(Path file) {
        return file.getFileName() == null ? file.toString() : file.getFileName().toString();
    }

    // ---------------------------------------------------------------- SST-2

    /** GLUE SST-2: header {@code label<TAB>sentence} (train) or {@code label<TAB>content} (dev/test), labels 0/1. */
    public static Dataset sst2(Path file) {
        return fromFile(file, (in, src) -> sst2(in, src, "sst2:" + fileName(file)));
    }

    public static Dataset sst2(Reader in, String source) {
        return sst2(in, source, "sst2:" + source);
    }

    private static Dataset sst2(Reader in, String source, String name) {
        LineCursor cursor = new LineCursor(in, source);
        String header = cursor.next();
        String expectedHeader = "header 'label<TAB>sentence' or 'label<TAB>content'";
        if (header == null) {
            throw cursor.error(expectedHeader, "end of input");
        }
        if (!header.equals("label\tsentence") && !header.equals("label\tcontent")) {
            throw cursor.error(expectedHeader, LineCursor.quote(header));
        }
        List<Example> examples = new ArrayList<>();
        // SST-2 text is not quoted: quote characters are ordinary text and are kept verbatim.
        for (String line = cursor.next(); line != null; line = cursor.next()) {
            examples.add(tabRow(line, cursor, SENTIMENT_LABELS.size()));
        }
        return finish(cursor, name, examples, SENTIMENT_LABELS);
    }

    // ---------------------------------------------------------------- generic TSV

    /**
     * Generic {@code label<TAB>text} with integer labels {@code 0..K-1}. The first line is taken as a header (and
     * skipped) when its first field is not an integer. Text is everything after the first tab.
     *
     * @param labelNames class names, fixing K; when null or empty, K is the largest label + 1 and the names are
     *                   "0".."K-1"
     */
    public static Dataset labelTsv(Path file, String name, List<String> labelNames) {
        return fromFile(file, (in, src) -> labelTsv(in, src, name, labelNames));
    }

    public static Dataset labelTsv(Reader in, String source, String name, List<String> labelNames) {
        return labelTsv(in, source, name, labelNames, false);
    }

    /** @param skipEmptyText leave out rows whose text is empty (else they are refused, naming the line) */
    public static Dataset labelTsv(Reader in, String source, String name, List<String> labelNames,
                                   boolean skipEmptyText) {
        boolean namesGiven = labelNames != null && !labelNames.isEmpty();
        int maxLabels = namesGiven ? labelNames.size() : Integer.MAX_VALUE;
        LineCursor cursor = new LineCursor(in, source);
        List<Example> examples = new ArrayList<>();
        String line = cursor.next();
        if (line != null && !INTEGER.matcher(firstField(line, '\t').strip()).matches()) {
            line = cursor.next(); // header
        }
        int maxLabel = -1;
        for (; line != null; line = cursor.next()) {
            if (skipEmptyText && line.indexOf('\t') >= 0 && line.substring(line.indexOf('\t') + 1).isBlank()) {
                continue;
            }
            Example e = tabRow(line, cursor, maxLabels);
            maxLabel = Math.max(maxLabel, e.label());
            examples.add(e);
        }
        List<String> names = labelNames;
        if (!namesGiven) {
            names = new ArrayList<>();
            for (int k = 0; k <= maxLabel; k++) {
                names.add(Integer.toString(k));
            }
        }
        return finish(cursor, name, examples, names);
    }

    private static String firstField(String line, char separator) {
        int at = line.indexOf(separator);
        return at < 0 ? line : line.substring(0, at);
    }

    private static Example tabRow(String line, LineCursor cursor, int numLabels) {
        int tab = line.indexOf('\t');
        if (tab < 0) {
            throw cursor.error("'label<TAB>text'", "no tab in " + LineCursor.quote(line));
        }
        int label = label(line.substring(0, tab), 0, numLabels, cursor);
        String text = line.substring(tab + 1).strip();
        if (text.isEmpty()) {
            throw cursor.error("non-empty text after the tab (data.empty-text = skip leaves such rows out)",
                    "empty text");
        }
        return new Example(text, label);
    }

    // ---------------------------------------------------------------- AG News

    /**
     * AG News in either layout, detected from the first line:
     * <ul>
     *   <li>3 columns {@code label,title,description} with labels 1-4 (the original {@code ag_news_csv} release,
     *       with or without a header line); text = title + " " + description;</li>
     *   <li>2 columns {@code "text",label} with labels 0-3 (the Hugging Face layout, header optional).</li>
     * </ul>
     * Labels are mapped to 0 World, 1 Sports, 2 Business, 3 Sci/Tech. The release's backslash conventions are undone:
     * {@code \$} becomes {@code $} and any other run of backslashes (a removed line break) becomes a space; whitespace
     * runs are collapsed. HTML entity remnants of the release ({@code #36;}, {@code #39;}, {@code &lt;}) are kept as
     * they are, as in the data the paper used.
     */
    public static Dataset agNews(Path file) {
        return fromFile(file, (in, src) -> agNews(in, src, "ag-news:" + fileName(file)));
    }

    public static Dataset agNews(Reader in, String source) {
        return agNews(in, source, "ag-news:" + source);
    }

    private static Dataset agNews(Reader in, String source, String name) {
        LineCursor cursor = new LineCursor(in, source);
        String line = cursor.next();
        if (line == null) {
            throw cursor.error("an AG News CSV line", "end of input");
        }
        List<String> first = Csv.split(line, cursor);
        final boolean threeColumns;
        final boolean header;
        if (first.size() == 3) {
            threeColumns = true;
            header = !INTEGER.matcher(first.get(0).strip()).matches();
        } else if (first.size() == 2) {
            threeColumns = false;
            header = !INTEGER.matcher(first.get(1).strip()).matches();
        } else {
            throw cursor.error("3 fields (label,title,description) or 2 fields (\"text\",label)",
                    first.size() + " fields");
        }
        if (header) {
            line = cursor.next();
        }
        List<Example> examples = new ArrayList<>();
        for (; line != null; line = cursor.next()) {
            List<String> fields = Csv.split(line, cursor);
            if (fields.size() != (threeColumns ? 3 : 2)) {
                throw cursor.error(threeColumns ? "3 fields (label,title,description)" : "2 fields (\"text\",label)",
                        fields.size() + " fields");
            }
            int label;
            String raw;
            if (threeColumns) {
                label = label(fields.get(0), 1, AG_NEWS_LABELS.size(), cursor);
                raw = fields.get(1) + " " + fields.get(2);
            } else {
                label = label(fields.get(1), 0, AG_NEWS_LABELS.size(), cursor);
                raw = fields.get(0);
            }
            examples.add(new Example(nonEmpty(agNewsText(raw), cursor), label));
        }
        return finish(cursor, name, examples, AG_NEWS_LABELS);
    }

    static String agNewsText(String raw) {
        String text = raw.replace("\\$", "$");
        text = BACKSLASH_RUN.matcher(text).replaceAll(" ");
        return WHITESPACE_RUN.matcher(text).replaceAll(" ").strip();
    }

    // ---------------------------------------------------------------- Yelp polarity

    /**
     * Yelp review polarity ({@code yelp_review_polarity_csv}): {@code "label","text"} with labels 1 negative, 2
     * positive, mapped to 0/1; a header line is skipped if the first field is not an integer. The release writes line
     * breaks as the two characters {@code \n}; they become spaces (the models see one flat text), and whitespace
     * runs are collapsed. {@code ""} is an escaped quote (RFC 4180).
     */
    public static Dataset yelpPolarity(Path file) {
        return fromFile(file, (in, src) -> yelpPolarity(in, src, "yelp-polarity:" + fileName(file)));
    }

    public static Dataset yelpPolarity(Reader in, String source) {
        return yelpPolarity(in, source, "yelp-polarity:" + source);
    }

    private static Dataset yelpPolarity(Reader in, String source, String name) {
        LineCursor cursor = new LineCursor(in, source);
        List<Example> examples = new ArrayList<>();
        String line = cursor.next();
        if (line != null && !INTEGER.matcher(Csv.split(line, cursor).get(0).strip()).matches()) {
            line = cursor.next(); // header
        }
        for (; line != null; line = cursor.next()) {
            List<String> fields = Csv.split(line, cursor);
            if (fields.size() != 2) {
                throw cursor.error("2 fields (\"label\",\"text\")", fields.size() + " fields");
            }
            int label = label(fields.get(0), 1, SENTIMENT_LABELS.size(), cursor);
            examples.add(new Example(nonEmpty(yelpText(fields.get(1)), cursor), label));
        }
        return finish(cursor, name, examples, SENTIMENT_LABELS);
    }

    static String yelpText(String raw) {
        return WHITESPACE_RUN.matcher(raw.replace("\\n", " ")).replaceAll(" ").strip();
    }

    // ---------------------------------------------------------------- shared

    /** Parses a label written as {@code first..first+count-1} and returns it 0-based. */
    private static int label(String field, int first, int count, LineCursor cursor) {
        String s = field.strip();
        String expected = count == Integer.MAX_VALUE
                ? "an integer label >= " + first
                : "an integer label in " + first + ".." + ((long) first + count - 1);
        if (!INTEGER.matcher(s).matches()) {
            throw cursor.error(expected, LineCursor.quote(field));
        }
        long value = Long.parseLong(s);
        if (value < first || value - first >= count) {
            throw cursor.error(expected, LineCursor.quote(field));
        }
        return (int) (value - first);
    }

    private static String nonEmpty(String text, LineCursor cursor) {
        if (text.isEmpty()) {
            throw cursor.error("non-empty text", "empty text");
        }
        return text;
    }

    private static Dataset finish(LineCursor cursor, String name, List<Example> examples, List<String> labelNames) {
        if (examples.isEmpty()) {
            throw cursor.error("at least one example", "end of input");
        }
        return new Dataset(name, examples, labelNames);
    }
}
