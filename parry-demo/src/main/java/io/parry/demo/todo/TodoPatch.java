package io.parry.demo.todo;

import jakarta.validation.constraints.Size;

/** A partial update: each field that is present replaces the stored one. */
record TodoPatch(@Size(min = 1, max = 1000) String title, Boolean completed, Integer order) {}
