package dev.fedbpt.engine.data;

import java.util.List;
import java.util.Objects;

/**
 * How a classification dataset is posed to a language model.
 *
 * @param name              canonical task name (see {@link Tasks#byName})
 * @param numClasses        number of classes K
 * @param labelNames        K class names, as in the dataset
 * @param template          masked-LM prompt with exactly one {@value #TEXT} and one {@value #MASK} placeholder
 *                          (FedBPT appendix C)
 * @param labelWords        K verbalizer words whose logits at the mask position score the classes; written without
 *                          a leading space (a BPE tokenizer such as RoBERTa's needs the space-prefixed token, which is
 *                          the inference layer's business)
 * @param labelDescriptions K short sentences describing each class, for heads that score by sentence similarity
 */
public record TaskDefinition(String name, int numClasses, List<String> labelNames, String template,
                             List<String> labelWords, List<String> labelDescriptions) {
    public static final String TEXT = "{text}";
    public static final String MASK = "[MASK]";

    public TaskDefinition {
        Objects.requireNonNull(name, "name");
        Objects.requireNonNull(template, "template");
        labelNames = List.copyOf(labelNames);
        labelWords = List.copyOf(labelWords);
        labelDescriptions = List.copyOf(labelDescriptions);
        if (numClasses < 2 || labelNames.size() != numClasses || labelWords.size() != numClasses
                || labelDescriptions.size() != numClasses) {
            throw new IllegalArgumentException("task " + name + ": need numClasses >= 2 and that many label names,"
                    + " words and descriptions, but got " + numClasses + ", " + labelNames.size() + ", "
                    + labelWords.size() + ", " + labelDescriptions.size());
        }
        if (count(template, TEXT) != 1 || count(template, MASK) != 1) {
            throw new IllegalArgumentException("task " + name + ": template must contain " + TEXT + " and " + MASK
                    + " exactly once each but was '" + template + "'");
        }
    }

    /** The prompt for {@code text}, keeping the literal {@value #MASK} placeholder. */
    public String apply(String text) {
        return apply(text, MASK);
    }

    /**
     * The prompt for {@code text} with the placeholder replaced by the model's own mask token (e.g. {@code <mask>}
     * for RoBERTa). The text is inserted last, so a text that happens to contain "[MASK]" or "{text}" is left intact.
     */
    public String apply(String text, String maskToken) {
        Objects.requireNonNull(text, "text");
        Objects.requireNonNull(maskToken, "maskToken");
        int at = template.indexOf(TEXT);
        String before = template.substring(0, at).replace(MASK, maskToken);
        String after = template.substring(at + TEXT.length()).replace(MASK, maskToken);
        return before + text + after;
    }

    private static int count(String s, String part) {
        int n = 0;
        for (int i = s.indexOf(part); i >= 0; i = s.indexOf(part, i + part.length())) {
            n++;
        }
        return n;
    }
}
