package io.parry.server.routing;

import io.parry.server.Handler;

/** A handler mounted under a prefix, as declared on a builder. */
record MountDeclaration(String prefix, Handler handler) {}
