package org.capsched.yarn;

import org.apache.hadoop.yarn.exceptions.InvalidLabelResourceRequestException;
import org.apache.hadoop.yarn.exceptions.InvalidResourceRequestException;
import org.apache.hadoop.yarn.exceptions.YarnException;
import org.capsched.CapschedException;

/**
 * capsched's refusals as the exceptions of YARN's own types that the RM's callers expect (an
 * AM's client unwraps them by class: a MapReduce AM kills its job at an invalid request, where
 * an unknown class would leave it retrying).
 */
final class YarnExceptions {
    private YarnExceptions() {}

    /**
     * A refused allocate: YARN's request checks' exception for the same words
     * (SchedulerUtils: label checks throw InvalidLabelResourceRequestException, the others
     * InvalidResourceRequestException), else a YarnException with capsched's message.
     */
    static YarnException forAllocate(CapschedException e) {
        String m = e.getMessage() == null ? "" : e.getMessage();
        if (m.startsWith("Invalid resource request, queue=") || m.startsWith("Invalid resource request, node label")
                || m.startsWith("Invalid label resource request")) {
            return new InvalidLabelResourceRequestException(m);
        }
        if (m.startsWith("Invalid resource request")) return new InvalidResourceRequestException(m);
        return new YarnException(m, e);
    }

    /**
     * Throws `e` from a method whose YARN signature declares no checked exception (the
     * scheduler's allocate; its caller, the AM service's processor, declares YarnException and
     * hands it to the AM as it would its own).
     */
    static RuntimeException sneaky(Throwable e) {
        throw YarnExceptions.<RuntimeException>raise(e);
    }

    @SuppressWarnings("unchecked")
    private static <E extends Throwable> E raise(Throwable e) throws E {
        throw (E) e;
    }
}
