package io.parry.openapi;

import io.parry.annotations.Controller;
import io.parry.annotations.Get;
import java.util.List;

/** Owners, whose routes the test puts behind an API key. */
@Controller("/owners")
final class OwnerController {
    /** Lists the owners. */
    @Get
    List<String> list() {
        return List.of("ada");
    }
}
