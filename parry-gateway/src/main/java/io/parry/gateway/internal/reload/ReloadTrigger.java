package io.parry.gateway.internal.reload;

/** What asked for a reload, for the log and the admin API. */
public enum ReloadTrigger {
    /** The configuration file changed. */
    FILE_CHANGE("file change"),
    /** The process received SIGHUP. */
    SIGHUP("SIGHUP"),
    /** {@code POST /admin/reload}. */
    ADMIN("POST /admin/reload"),
    /** A call of {@code Gateway.reload()}. */
    API("Gateway.reload()");

    private final String description;

    ReloadTrigger(String description) {
        this.description = description;
    }

    @Override
    public String toString() {
        return description;
    }
}
