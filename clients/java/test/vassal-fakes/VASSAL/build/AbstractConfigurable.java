/*
 * A fake, not VASSAL code: the VASSAL types the adapter uses, with the stand-ins' signatures and just enough
 * behaviour to run the adapter headless in AdapterTests (chat and log recorded, preferences in memory, the
 * selection a list). Test-only: never in the build outputs, never on a module's class path.
 */
package VASSAL.build;

public abstract class AbstractConfigurable extends AbstractBuildable implements AutoConfigurable {
  private String name = "";

  @Override
  public String getConfigureName() {
    return name;
  }

  public void setConfigureName(String s) {
    name = s;
  }
}
