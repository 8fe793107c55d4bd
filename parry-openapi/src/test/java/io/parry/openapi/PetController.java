package io.parry.openapi;

import io.parry.annotations.Body;
import io.parry.annotations.Controller;
import io.parry.annotations.Default;
import io.parry.annotations.Delete;
import io.parry.annotations.Filters;
import io.parry.annotations.Get;
import io.parry.annotations.PathParam;
import io.parry.annotations.Post;
import io.parry.annotations.QueryParam;
import io.parry.json.JsonResult;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;

/** Pets, described by the document the processor writes. */
@Controller("/pets")
final class PetController {
    private final Map<Long, Pet> pets = new ConcurrentHashMap<>();

    /** Lists the pets, the youngest first. Up to a limit. */
    @Get
    List<Pet> list(@QueryParam @Default("20") int limit) {
        return pets.values().stream().limit(limit).toList();
    }

    /** Finds a pet by its {@code id}. */
    @Get("/{id:\\d+}")
    Optional<Pet> find(@PathParam long id) {
        return Optional.ofNullable(pets.get(id));
    }

    /** Adds a pet. */
    @Post
    JsonResult<Pet> add(@Body Pet pet) {
        pets.put(pet.id(), pet);
        return JsonResult.created("/pets/" + pet.id(), pet);
    }

    /** Removes a pet. */
    @Delete("/{id}")
    @Filters(named = "admin")
    void remove(@PathParam long id) {
        pets.remove(id);
    }
}
