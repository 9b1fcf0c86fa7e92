package dev.fedbpt.report;

import java.util.List;

/** A titled table of text cells, rendered as Markdown or HTML. */
public record Table(String title, List<String> header, List<List<String>> rows) {

    public Table {
        header = List.copyOf(header);
        rows = rows.stream().map(List::copyOf).toList();
    }

    public String toMarkdown() {
        StringBuilder md = new StringBuilder();
        md.append(markdownRow(header));
        md.append('|');
        for (int i = 0; i < header.size(); i++) {
            md.append(i < 3 ? " --- |" : " ---: |");
        }
        md.append('\n');
        for (List<String> row : rows) {
            md.append(markdownRow(row));
        }
        return md.toString();
    }

    public String toHtml() {
        StringBuilder html = new StringBuilder("<table>\n<thead><tr>");
        for (String cell : header) {
            html.append("<th>").append(Html.escape(cell)).append("</th>");
        }
        html.append("</tr></thead>\n<tbody>\n");
        for (List<String> row : rows) {
            html.append("<tr>");
            for (int i = 0; i < row.size(); i++) {
                String cell = row.get(i);
                html.append(numeric(cell) ? "<td class=\"num\">" : "<td>").append(Html.escape(cell)).append("</td>");
            }
            html.append("</tr>\n");
        }
        return html.append("</tbody>\n</table>\n").toString();
    }

    /** Numbers (and their "n/a") are right-aligned in HTML. */
    private static boolean numeric(String cell) {
        return !cell.isEmpty() && (Character.isDigit(cell.charAt(0)) || cell.startsWith("n/a"));
    }

    private static String markdownRow(List<String> cells) {
        StringBuilder row = new StringBuilder("|");
        for (String cell : cells) {
            row.append(' ').append(cell.replace("|", "\\|")).append(" |");
        }
        return row.append('\n').toString();
    }
}
