package io.parry.demo.todo;

import jakarta.validation.constraints.NotBlank;
import jakarta.validation.constraints.Size;

/** What a client posts to create a todo; {@code completed} and {@code order} are optional. */
record NewTodo(@NotBlank @Size(max = 1000) String title, Boolean completed, Integer order) {}
