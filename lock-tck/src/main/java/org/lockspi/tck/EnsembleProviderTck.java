package org.lockspi.tck;

import java.lang.reflect.Method;
import java.util.Optional;
import org.junit.jupiter.api.extension.ConditionEvaluationResult;
import org.junit.jupiter.api.extension.ExecutionCondition;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.extension.ExtensionContext;

/**
 * The ensemble contracts (§19) alone, for a provider's second TCK class: it names the provider as for
 * {@link LockProviderTck} and starts a backend with {@link TckBackend.Capability#ENSEMBLE}, which is started once
 * for the class and shared by its tests. Every other contract is reported as disabled here, because the
 * provider's main TCK class runs it against a single server:
 *
 * <pre>{@code
 * class CuratorEnsembleTckTest extends EnsembleProviderTck {
 *     public LockProvider provider() { return new CuratorLockProvider(); }
 *     protected TckBackend startBackend() { return ZooKeeperEnsembleBackend.start(); }
 *     protected String clientParameters() { return "sessionTimeout=3s&connectTimeout=1s"; }
 * }
 * }</pre>
 */
@ExtendWith(EnsembleProviderTck.OnlyEnsembleContracts.class)
public abstract class EnsembleProviderTck extends LockProviderTck {

    /** Enables the tests declared by {@link EnsembleFailureContracts} and disables the others. */
    public static final class OnlyEnsembleContracts implements ExecutionCondition {
        @Override
        public ConditionEvaluationResult evaluateExecutionCondition(ExtensionContext context) {
            Optional<Method> method = context.getTestMethod();
            if (method.isEmpty() || method.get().getDeclaringClass() == EnsembleFailureContracts.class) {
                return ConditionEvaluationResult.enabled("an ensemble contract (§19)");
            }
            return ConditionEvaluationResult.disabled("the ensemble class runs §19 only; the provider's main TCK "
                    + "class runs this contract against a single server");
        }
    }
}
