package io.parry.annotations.processor.dialects;

/** A note as the JAX-RS and Spring controllers store it. */
public record Note(long id, String text) {}
