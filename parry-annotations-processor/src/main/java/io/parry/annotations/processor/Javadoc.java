package io.parry.annotations.processor;

/** Reads what an OpenAPI summary takes from a Javadoc comment. */
final class Javadoc {
    private Javadoc() {}

    /** The first sentence, up to a period followed by white space or the end, before any block tag; {@code null} if empty. */
    static String firstSentence(String doc) {
        int tag = doc.indexOf("\n@");
        String text = (tag < 0 ? doc : doc.substring(0, tag)).trim();
        if (text.startsWith("@")) {
            return null;
        }
        int end = text.length();
        for (int i = 0; i < text.length() - 1; i++) {
            if (text.charAt(i) == '.' && Character.isWhitespace(text.charAt(i + 1))) {
                end = i + 1;
                break;
            }
        }
        String sentence = text.substring(0, end)
                .replaceAll("\\s+", " ")
                .replaceAll("\\{@\\w+ ([^}]*)}", "$1")
                .trim();
        return sentence.isEmpty() ? null : sentence;
    }
}
