package io.parry.annotations.processor.items;

/** A stored item. */
public record Item(long id, String name, Kind kind) {}
