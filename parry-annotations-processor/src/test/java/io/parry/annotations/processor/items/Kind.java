package io.parry.annotations.processor.items;

/** What an item is. */
public enum Kind {
    BOOK,
    TOOL
}
