package dev.fedbpt.engine.data;

import java.util.HashSet;
import java.util.List;
import java.util.Objects;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * How a classification task is posed to a language model and scored. Tasks are defined in task files (HOCON; see
 * the config module's {@code TaskFiles} and the shipped ones beside it), not in code.
 *
 * @param name              the task's name, as results record it
 * @param inputs            the input names: one (a sentence) or two (a pair); the template writes each as
 *                          {@code {name}}
 * @param labelValues       each class's label as the data files write it, in class order
 * @param labelNames        each class's human name
 * @param template          masked-LM prompt with each input placeholder and one {@value #MASK} exactly once (other
 *                          text, [SEP] included, goes to the tokenizer as written)
 * @param labelWords        K verbalizer words whose logits at the mask position score the classes; written without
 *                          a leading space (a BPE tokenizer such as RoBERTa's needs the space-prefixed token, which is
 *                          the inference layer's business)
 * @param labelDescriptions K short sentences describing each class, for heads that score by sentence similarity
 * @param metrics           what evaluations report, the headline first (accuracy is always reported)
 * @param positiveLabel     the class F1 is computed for; -1 when the task does not report F1
 * @param columns           where the label and inputs are in the task's data files (data.format = columns), or
 *                          null for tasks read by a format of their own (sst2, agnews, yelp, tsv)
 */
public record TaskDefinition(String name, List<String> inputs, List<String> labelValues, List<String> labelNames,
                             String template, List<String> labelWords, List<String> labelDescriptions,
                             List<TaskMetric> metrics, int positiveLabel, ColumnLayout columns) {
    public static final String MASK = "[MASK]";
    private static final Pattern PLACEHOLDER = Pattern.compile("\\{([A-Za-z0-9_.#-]+)}");

    public TaskDefinition {
        Objects.requireNonNull(name, "name");
        Objects.requireNonNull(template, "template");
        inputs = List.copyOf(inputs);
        labelValues = List.copyOf(labelValues);
        labelNames = List.copyOf(labelNames);
        labelWords = List.copyOf(labelWords);
        labelDescriptions = List.copyOf(labelDescriptions);
        metrics = List.copyOf(metrics);
        int k = labelValues.size();
        if (k < 2 || labelNames.size() != k || labelWords.size() != k || labelDescriptions.size() != k) {
            throw new IllegalArgumentException("task " + name + ": need at least 2 labels, each with a name, a word"
                    + " and a description, but got " + k + " values, " + labelNames.size() + " names, "
                    + labelWords.size() + " words and " + labelDescriptions.size() + " descriptions");
        }
        if (new HashSet<>(labelValues).size() != k) {
            throw new IllegalArgumentException("task " + name + ": label values must differ but were " + labelValues);
        }
        if (inputs.isEmpty() || inputs.size() > 2 || new HashSet<>(inputs).size() != inputs.size()) {
            throw new IllegalArgumentException("task " + name + ": inputs must be one or two distinct names but were "
                    + inputs);
        }
        checkTemplate(name, template, inputs);
        if (metrics.isEmpty()) {
            throw new IllegalArgumentException("task " + name + ": name at least one metric");
        }
        if (metrics.contains(TaskMetric.F1) != (positiveLabel >= 0)) {
            throw new IllegalArgumentException("task " + name + ": f1 needs a positive label, and a positive label is"
                    + " only used by f1");
        }
        if (positiveLabel >= k) {
            throw new IllegalArgumentException("task " + name + ": positive label " + positiveLabel + " is not one of"
                    + " the " + k + " classes");
        }
        if (columns != null && columns.inputs().size() != inputs.size()) {
            throw new IllegalArgumentException("task " + name + ": " + inputs.size() + " inputs but "
                    + columns.inputs().size() + " input columns");
        }
    }

    private static void checkTemplate(String name, String template, List<String> inputs) {
        if (count(template, MASK) != 1) {
            throw new IllegalArgumentException("task " + name + ": template must contain " + MASK
                    + " exactly once but was '" + template + "'");
        }
        Set<String> seen = new HashSet<>();
        Matcher m = PLACEHOLDER.matcher(template);
        while (m.find()) {
            if (!inputs.contains(m.group(1))) {
                throw new IllegalArgumentException("task " + name + ": template placeholder {" + m.group(1)
                        + "} is not an input (inputs: " + inputs + ")");
            }
            if (!seen.add(m.group(1))) {
                throw new IllegalArgumentException("task " + name + ": template writes {" + m.group(1)
                        + "} twice");
            }
        }
        if (seen.size() != inputs.size()) {
            throw new IllegalArgumentException("task " + name + ": template must place every input " + inputs
                    + " but was '" + template + "'");
        }
    }

    public int numClasses() {
        return labelValues.size();
    }

    /** Whether examples are pairs of texts. */
    public boolean pairs() {
        return inputs.size() == 2;
    }

    /** The prompt for {@code example}, keeping the literal {@value #MASK} placeholder. */
    public String apply(Example example) {
        return apply(example, MASK);
    }

    /**
     * The prompt for {@code example} with the placeholder replaced by the model's own mask token (e.g.
     * {@code <mask>} for RoBERTa). Inputs are inserted last, so an input that happens to contain "[MASK]" or a
     * placeholder is left intact.
     */
    public String apply(Example example, String maskToken) {
        Objects.requireNonNull(maskToken, "maskToken");
        if (example.inputs().size() != inputs.size()) {
            throw new IllegalArgumentException("task " + name + " has " + inputs.size() + " inputs but the example"
                    + " has " + example.inputs().size());
        }
        StringBuilder out = new StringBuilder();
        Matcher m = PLACEHOLDER.matcher(template);
        int at = 0;
        while (m.find()) {
            out.append(template.substring(at, m.start()).replace(MASK, maskToken))
                    .append(example.inputs().get(inputs.indexOf(m.group(1))));
            at = m.end();
        }
        return out.append(template.substring(at).replace(MASK, maskToken)).toString();
    }

    private static int count(String s, String part) {
        int n = 0;
        for (int i = s.indexOf(part); i >= 0; i = s.indexOf(part, i + part.length())) {
            n++;
        }
        return n;
    }
}
