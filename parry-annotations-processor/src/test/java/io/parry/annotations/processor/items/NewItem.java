package io.parry.annotations.processor.items;

import jakarta.validation.constraints.NotBlank;
import jakarta.validation.constraints.NotNull;
import jakarta.validation.constraints.Size;

/** What a client posts to create an item. */
public record NewItem(@NotBlank @Size(max = 20) String name, @NotNull Kind kind) {}
