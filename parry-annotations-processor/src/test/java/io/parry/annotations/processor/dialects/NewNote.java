package io.parry.annotations.processor.dialects;

import jakarta.validation.constraints.NotBlank;

/** What a client posts to add a note. */
public record NewNote(@NotBlank String text) {}
