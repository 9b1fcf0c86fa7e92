package dev.fedbpt.engine.data;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.io.StringReader;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.function.Function;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class DatasetReadersTest {
    @TempDir
    Path dir;

    private Path write(String name, String content) throws IOException {
        Path file = dir.resolve(name);
        Files.writeString(file, content, StandardCharsets.UTF_8);
        return file;
    }

    private DatasetFormatException malformed(String content, Function<Path, Dataset> reader, int line,
                                             String messagePart) throws IOException {
        Path file = write("bad.txt", content);
        DatasetFormatException e = assertThrows(DatasetFormatException.class, () -> reader.apply(file));
        assertEquals(file.toString(), e.file());
        assertEquals(line, e.line(), e.getMessage());
        assertTrue(e.getMessage().startsWith(file + ":" + line + ": expected "), e.getMessage());
        assertTrue(e.getMessage().contains(messagePart), e.getMessage());
        return e;
    }

    // ---------------------------------------------------------------- SST-2

    @Test
    void sst2TrainAndDevHeaders() throws IOException {
        Dataset train = DatasetReaders.sst2(write("train.tsv",
                "label\tsentence\r\n0\thide new secretions \r\n1\tthat loves its \"characters\" , `` really ''\r\n"));
        assertEquals("sst2:train.tsv", train.name());
        assertEquals(List.of(new Example("hide new secretions", 0),
                new Example("that loves its \"characters\" , `` really ''", 1)), train.examples());
        assertEquals(List.of("negative", "positive"), train.labelNames());

        Dataset dev = DatasetReaders.sst2(write("dev.tsv", "label\tcontent\n1\tcrème brûlée , great\n\n"));
        assertEquals(List.of(new Example("crème brûlée , great", 1)), dev.examples());
    }

    @Test
    void sst2FromReader() {
        Dataset d = DatasetReaders.sst2(new StringReader("label\tcontent\n0\tdull\n"), "mem.tsv");
        assertEquals(1, d.size());
        DatasetFormatException e = assertThrows(DatasetFormatException.class,
                () -> DatasetReaders.sst2(new StringReader("label\tcontent\n2\tdull\n"), "mem.tsv"));
        assertEquals("mem.tsv", e.file());
        assertEquals(2, e.line());
    }

    @Test
    void sst2Malformed() throws IOException {
        malformed("sentence\tlabel\nx\t0\n", DatasetReaders::sst2, 1, "header");
        malformed("", DatasetReaders::sst2, 1, "but found end of input");
        malformed("label\tsentence\n", DatasetReaders::sst2, 1, "at least one example");
        malformed("label\tsentence\n0\tok\n2\tbad label\n", DatasetReaders::sst2, 3, "label in 0..1 but found '2'");
        malformed("label\tsentence\n0\tok\nx\tbad label\n", DatasetReaders::sst2, 3, "but found 'x'");
        malformed("label\tsentence\n0\tok\n\n1 no tab here\n", DatasetReaders::sst2, 4, "no tab");
        malformed("label\tsentence\n0\t   \n", DatasetReaders::sst2, 2, "empty text");
    }

    @Test
    void invalidUtf8IsAFormatError() throws IOException {
        Path file = dir.resolve("latin1.tsv");
        Files.write(file, new byte[] {'l', 'a', 'b', 'e', 'l', '\t', 'c', 'o', 'n', 't', 'e', 'n', 't', '\n',
                '1', '\t', 'c', 'r', (byte) 0xE8, 'm', 'e', '\n'});
        DatasetFormatException e = assertThrows(DatasetFormatException.class, () -> DatasetReaders.sst2(file));
        assertTrue(e.getMessage().contains("UTF-8"), e.getMessage());
    }

    @Test
    void missingFileIsAnIoError() {
        assertThrows(UncheckedIOException.class, () -> DatasetReaders.sst2(dir.resolve("absent.tsv")));
    }

    // ---------------------------------------------------------------- AG News

    @Test
    void agNewsThreeColumnsWithHeader() throws IOException {
        Dataset d = DatasetReaders.agNews(write("test.csv", String.join("\r\n",
                "label,title,description",
                "3,Fears for T N pension,Unions say they are 'disappointed'.",
                "4,\"Race, on\",\"SPACE.com - A second\\team of \"\"rocketeers\"\" for \\$10 million\"",
                "1,Title,\"Loosing the War,\"\"\\\\\"\"Sven Jaschan\"\"\"",
                "2,Tennis,  Federer   wins  ",
                "")));
        assertEquals("ag-news:test.csv", d.name());
        assertEquals(List.of(
                new Example("Fears for T N pension Unions say they are 'disappointed'.", 2),
                new Example("Race, on SPACE.com - A second team of \"rocketeers\" for $10 million", 3),
                new Example("Title Loosing the War,\" \"Sven Jaschan\"", 0),
                new Example("Tennis Federer wins", 1)), d.examples());
        assertEquals(List.of("World", "Sports", "Business", "Sci/Tech"), d.labelNames());
    }

    @Test
    void agNewsThreeColumnsWithoutHeader() throws IOException {
        Dataset d = DatasetReaders.agNews(write("train.csv", "\"3\",\"Wall St.\",\"Bears claw back\"\n"));
        assertEquals(List.of(new Example("Wall St. Bears claw back", 2)), d.examples());
    }

    @Test
    void agNewsTwoColumns() throws IOException {
        Dataset d = DatasetReaders.agNews(write("train-subset.csv",
                "\"BEA buzzing, about Beehive\",3\n\"Storm shows Haiti #39;s straits\",0\n"));
        assertEquals(List.of(new Example("BEA buzzing, about Beehive", 3),
                new Example("Storm shows Haiti #39;s straits", 0)), d.examples());
        Dataset withHeader = DatasetReaders.agNews(write("h.csv", "text,label\n\"Oil up\",2\n"));
        assertEquals(List.of(new Example("Oil up", 2)), withHeader.examples());
    }

    @Test
    void agNewsMalformed() throws IOException {
        malformed("label,title,description\n0,a,b\n", DatasetReaders::agNews, 2, "label in 1..4 but found '0'");
        malformed("label,title,description\n5,a,b\n", DatasetReaders::agNews, 2, "label in 1..4");
        malformed("\"a\",4\n", DatasetReaders::agNews, 1, "label in 0..3 but found '4'");
        malformed("label,title,description\n1,a,b\n2,only two\n", DatasetReaders::agNews, 3,
                "3 fields (label,title,description) but found 2 fields");
        malformed("\"text\",1\n\"a\",1,extra\n", DatasetReaders::agNews, 2, "2 fields");
        malformed("label,title,description\n1,\"unterminated,b\n", DatasetReaders::agNews, 2,
                "closing quote for the field opened at column 3 but found end of line");
        malformed("label,title,description\n1,\"a\"b,c\n", DatasetReaders::agNews, 2,
                "',' or end of line after the closing quote");
        malformed("label,title,description\n1,\\\\, \n", DatasetReaders::agNews, 2, "non-empty text");
        malformed("a,b,c,d\n", DatasetReaders::agNews, 1, "but found 4 fields");
        malformed("\n\n", DatasetReaders::agNews, 2, "end of input");
    }

    // ---------------------------------------------------------------- Yelp polarity

    @Test
    void yelpPolarity() throws IOException {
        Dataset d = DatasetReaders.yelpPolarity(write("yelp.csv", String.join("\n",
                "\"1\",\"Unfortunately, the frustration of being Dr. Goldberg's patient.\\nThe \"\"staff\"\" never answers.\"",
                "\"2\",\"Been going for years.\\n\\nGreat, friendly service!\"",
                "")));
        assertEquals("yelp-polarity:yelp.csv", d.name());
        assertEquals(List.of(
                new Example("Unfortunately, the frustration of being Dr. Goldberg's patient. The \"staff\" never answers.", 0),
                new Example("Been going for years. Great, friendly service!", 1)), d.examples());
        assertEquals(List.of("negative", "positive"), d.labelNames());
        Dataset withHeader = DatasetReaders.yelpPolarity(write("h.csv", "label,text\n2,fine\n"));
        assertEquals(List.of(new Example("fine", 1)), withHeader.examples());
    }

    @Test
    void yelpMalformed() throws IOException {
        malformed("\"1\",\"ok\"\n\"3\",\"bad\"\n", DatasetReaders::yelpPolarity, 2, "label in 1..2 but found '3'");
        malformed("\"1\",\"ok\"\n\"2\"\n", DatasetReaders::yelpPolarity, 2, "2 fields");
        malformed("\"1\",\"ok\"\n\"2\",\"\\n \"\n", DatasetReaders::yelpPolarity, 2, "non-empty text");
        malformed("\"1\",\"open\n", DatasetReaders::yelpPolarity, 1, "closing quote");
    }

    // ---------------------------------------------------------------- generic TSV

    @Test
    void labelTsvInfersLabelNamesAndSkipsHeader() throws IOException {
        Dataset d = DatasetReaders.labelTsv(write("g.tsv", "label\ttext\n2\tc\tstill text\n0\ta\n"), "g", null);
        assertEquals("g", d.name());
        assertEquals(List.of(new Example("c\tstill text", 2), new Example("a", 0)), d.examples());
        assertEquals(List.of("0", "1", "2"), d.labelNames());
    }

    @Test
    void labelTsvWithoutHeaderAndWithNames() throws IOException {
        Dataset d = DatasetReaders.labelTsv(write("g.tsv", "1\tyes\n0\tno\n"), "g", List.of("neg", "pos"));
        assertEquals(List.of(new Example("yes", 1), new Example("no", 0)), d.examples());
        assertEquals(List.of("neg", "pos"), d.labelNames());
    }

    @Test
    void labelTsvMalformed() throws IOException {
        Function<Path, Dataset> twoClasses = p -> DatasetReaders.labelTsv(p, "g", List.of("neg", "pos"));
        malformed("label\ttext\n1\tyes\n2\tno\n", twoClasses, 3, "label in 0..1 but found '2'");
        Function<Path, Dataset> inferred = p -> DatasetReaders.labelTsv(p, "g", List.of());
        malformed("0\tyes\n-1\tno\n", inferred, 2, "label >= 0 but found '-1'");
        malformed("0\tyes\n99999999999\tno\n", inferred, 2, "integer label");
        malformed("label\ttext\n", inferred, 1, "at least one example");
    }

    // ---------------------------------------------------------------- CSV splitting

    @Test
    void csvSplitFollowsRfc4180() {
        LineCursor at = new LineCursor(new StringReader(""), "x");
        assertEquals(List.of("a", "b,c", "d\"e", "", ""), Csv.split("a,\"b,c\",\"d\"\"e\",,", at));
        assertEquals(List.of("5\" screen", "x"), Csv.split("5\" screen,x", at));
        assertEquals(List.of(""), Csv.split("", at));
        assertEquals(List.of("a\\\"", "b"), Csv.split("\"a\\\"\"\",b", at));
    }
}
