package dev.fedbpt.engine.data;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.StringReader;
import java.util.List;
import org.junit.jupiter.api.Test;

class ColumnReaderTest {
    private static Dataset read(String text, ColumnLayout layout) {
        return ColumnReader.read(new StringReader(text), "data/my.file", TestTasks.pair(layout));
    }

    private static ColumnLayout named(ColumnLayout.Kind kind, String label, String... inputs) {
        return new ColumnLayout(kind, true, label, List.of(inputs));
    }

    @Test
    void tsvByHeaderNamesWithoutQuoting() {
        Dataset d = read("\uFEFFid\t#1 String\t#2 String\tQuality\n"
                        + "7\tHe said \" hi \" .\tHe greeted .\tentailment\n\n"
                        + "8\tA\tB\tnot_entailment\n",
                named(ColumnLayout.Kind.TSV, "Quality", "#1 String", "#2 String"));
        assertEquals(List.of(new Example(List.of("He said \" hi \" .", "He greeted ."), 0),
                new Example(List.of("A", "B"), 1)), d.examples());
        assertEquals("pair:my.file", d.name());
        assertEquals(List.of("entailment", "not entailment"), d.labelNames());
    }

    @Test
    void tsvByIndexWithoutHeader() {
        ColumnLayout layout = new ColumnLayout(ColumnLayout.Kind.TSV, false, "1", List.of("3", "0"));
        Dataset d = read("gj04\tnot_entailment\t*\tThey drank the pub .\n", layout);
        assertEquals(List.of(new Example(List.of("They drank the pub .", "gj04"), 1)), d.examples());
    }

    @Test
    void csvWithQuotedFields() {
        Dataset d = read("premise,hypothesis,label\n\"A, b\",\"say \"\"c\"\"\",entailment\n",
                named(ColumnLayout.Kind.CSV, "label", "premise", "hypothesis"));
        assertEquals(List.of(new Example(List.of("A, b", "say \"c\""), 0)), d.examples());
    }

    @Test
    void jsonLinesWithNumberAndStringValues() {
        ColumnLayout layout = named(ColumnLayout.Kind.JSONL, "gold", "p", "h");
        Dataset d = read("{\"p\": \"caf\\u00e9 \\\"x\\\"\", \"h\": \"y\\tz\", \"gold\": \"entailment\", \"n\": 3}\n"
                + "{\"gold\":\"not_entailment\",\"p\":\"a\",\"h\":\"b\",\"extra\":null}\n", layout);
        assertEquals(List.of(new Example(List.of("café \"x\"", "y\tz"), 0), new Example(List.of("a", "b"), 1)),
                d.examples());
    }

    @Test
    void errorsNameTheFileLineAndWhatWasExpected() {
        ColumnLayout tsv = named(ColumnLayout.Kind.TSV, "label", "a", "b");
        DatasetFormatException missingColumn = assertThrows(DatasetFormatException.class,
                () -> read("label\ta\tc\n", tsv));
        assertTrue(missingColumn.getMessage().contains("data/my.file:1")
                && missingColumn.getMessage().contains("'b'"), missingColumn.getMessage());
        DatasetFormatException badLabel = assertThrows(DatasetFormatException.class,
                () -> read("label\ta\tb\nentailment\tx\ty\nmaybe\tx\ty\n", tsv));
        assertTrue(badLabel.getMessage().contains("data/my.file:3") && badLabel.getMessage().contains("'maybe'")
                && badLabel.getMessage().contains("[entailment, not_entailment]"), badLabel.getMessage());
        DatasetFormatException shortRow = assertThrows(DatasetFormatException.class,
                () -> read("label\ta\tb\nentailment\tx\n", tsv));
        assertTrue(shortRow.getMessage().contains(":2"), shortRow.getMessage());
        DatasetFormatException empty = assertThrows(DatasetFormatException.class,
                () -> read("label\ta\tb\nentailment\t \ty\n", tsv));
        assertTrue(empty.getMessage().contains("'a'"), empty.getMessage());
        DatasetFormatException json = assertThrows(DatasetFormatException.class, () -> read(
                "{\"gold\": \"entailment\", \"p\": [1], \"h\": \"b\"}\n",
                named(ColumnLayout.Kind.JSONL, "gold", "p", "h")));
        assertTrue(json.getMessage().contains(":1") && json.getMessage().contains("flat object"), json.getMessage());
        assertThrows(DatasetFormatException.class, () -> read("label\ta\tb\n", tsv), "no examples");
    }

    @Test
    void layoutsAreChecked() {
        assertThrows(IllegalArgumentException.class,
                () -> new ColumnLayout(ColumnLayout.Kind.TSV, false, "label", List.of("1")));
        assertThrows(IllegalArgumentException.class,
                () -> new ColumnLayout(ColumnLayout.Kind.JSONL, false, "0", List.of("1")));
    }
}
