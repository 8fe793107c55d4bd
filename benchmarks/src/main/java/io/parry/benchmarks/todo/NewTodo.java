package io.parry.benchmarks.todo;

import jakarta.validation.constraints.NotBlank;
import jakarta.validation.constraints.PositiveOrZero;
import jakarta.validation.constraints.Size;

/** The request both JSON servers decode and validate. */
public record NewTodo(@NotBlank @Size(max = 200) String title, boolean completed, @PositiveOrZero Integer order) {}
