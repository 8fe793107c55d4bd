package io.parry.annotations.processor.dialects;

import jakarta.ws.rs.Consumes;
import jakarta.ws.rs.DELETE;
import jakarta.ws.rs.DefaultValue;
import jakarta.ws.rs.GET;
import jakarta.ws.rs.HeaderParam;
import jakarta.ws.rs.POST;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.PathParam;
import jakarta.ws.rs.Produces;
import jakarta.ws.rs.QueryParam;
import java.util.List;
import java.util.Optional;

/** Notes as a JAX-RS resource, moved unchanged from a JAX-RS service. */
@Path("notes")
@Produces("application/json")
public class NoteResource {
    private final NoteStore store = new NoteStore();

    /** Lists the notes. */
    @GET
    public List<Note> list(@QueryParam("limit") @DefaultValue("10") int limit, @QueryParam("q") String query) {
        return store.list(limit, query);
    }

    /** Finds a note. */
    @GET
    @Path("{id: \\d+}")
    public Optional<Note> one(@PathParam("id") long id) {
        return store.find(id);
    }

    /** Adds a note. */
    @POST
    @Consumes("application/json")
    public Note add(NewNote note, @HeaderParam("x-author") String author) {
        return store.add(author == null ? note.text() : author + ": " + note.text());
    }

    @DELETE
    @Path("/{id}")
    public void delete(@PathParam("id") long id) {
        store.delete(id);
    }
}
