package io.parry.openapi;

import jakarta.validation.constraints.Min;
import jakarta.validation.constraints.NotBlank;
import jakarta.validation.constraints.Pattern;
import jakarta.validation.constraints.Size;
import java.util.List;

/** A pet. */
public record Pet(
        long id,
        @NotBlank @Size(max = 40) String name,
        @Min(0) int age,
        @Pattern(regexp = "[a-z]+") String species,
        List<String> tags) {}
