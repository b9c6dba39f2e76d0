package org.arbiter.kit.test;

import java.io.ByteArrayInputStream;
import java.io.File;
import java.io.InputStream;
import java.lang.reflect.Field;
import java.lang.reflect.Method;
import java.lang.reflect.Modifier;
import java.net.URL;
import java.net.URLClassLoader;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;
import java.util.zip.ZipEntry;
import java.util.zip.ZipFile;
import javax.xml.parsers.DocumentBuilderFactory;
import org.w3c.dom.Document;
import org.w3c.dom.Element;
import org.w3c.dom.NamedNodeMap;
import org.w3c.dom.Node;

/**
 * What `npm run build:vassal` wrote, read as VASSAL 3.7 reads it (ModuleExtension, ExtensionMetaData,
 * ExtensionElement, Builder, DataArchive): the extension's members, its buildFile.xml and extensiondata, the
 * components it adds (classes in the archive, at their package paths, built for Java 17, with a public
 * no-argument constructor, toolbar items whose every buildFile attribute is one the component reads), and no
 * stand-in class in either output.
 * Usage: VassalExtensionTests dist/vassal/Arbiter.vmdx dist/vassal/arbiter-vassal-kit.jar STANDIN_CLASSES_DIR [docs/vassal.md]
 */
public final class VassalExtensionTests {
    public static void main(String[] args) {
        File vmdx = new File(args[0]);
        File jar = new File(args[1]);
        File standIns = new File(args[2]);
        T.section("the extension's members", () -> members(vmdx, jar));
        T.section("buildFile.xml: a module extension ANY module loads, adding the Arbiter buttons to the module", () -> buildFile(vmdx, standIns));
        T.section("extensiondata: VASSAL's metadata of an extension, universal, read as 3.5 or later", () -> extensionData(vmdx));
        if (args.length > 3) T.section("docs/vassal.md tells a designer what to copy into the module: the classes the extension holds", () -> designerDocs(vmdx, new File(args[3])));
        System.exit(T.finish());
    }

    static void designerDocs(File vmdx, File docs) throws Exception {
        String text = java.nio.file.Files.readString(docs.toPath()).replaceAll("\\s+", " ");
        java.util.regex.Matcher m = java.util.regex.Pattern.compile("grep -c 'org/arbiter\\.\\*class'`: (\\d+) class files").matcher(text);
        try (ZipFile ext = new ZipFile(vmdx)) {
            long classes = names(ext).stream().filter(n -> n.startsWith("org/arbiter/") && n.endsWith(".class")).count();
            T.check(m.find() && Long.parseLong(m.group(1)) == classes, "the count a designer checks in the module is the extension's: " + classes + " class files");
        }
        T.check(text.contains("This step cannot be skipped"), "the classes go into the module even when every player loads the extension (VASSAL builds the module before its extensions)");
    }

    static Set<String> names(ZipFile zip) {
        Set<String> out = new TreeSet<>();
        zip.stream().map(ZipEntry::getName).forEach(out::add);
        return out;
    }

    static void members(File vmdx, File jar) throws Exception {
        try (ZipFile ext = new ZipFile(vmdx); ZipFile kit = new ZipFile(jar)) {
            Set<String> e = names(ext);
            Set<String> k = names(kit);
            T.check(e.contains("buildFile.xml"), "the extension holds buildFile.xml (GameModule.BUILDFILE)");
            T.check(e.contains("extensiondata"), "the extension holds extensiondata (ExtensionMetaData.ZIP_ENTRY_NAME)");
            for (String c : List.of("org/arbiter/kit/vassal/ArbiterDiceButton.class", "org/arbiter/kit/vassal/ArbiterCommandButton.class", "org/arbiter/kit/vassal/ArbiterButton.class",
                    "org/arbiter/kit/vassal/ArbiterCommandEncoder.class", "org/arbiter/kit/vassal/ArbiterLogCommand.class", "org/arbiter/kit/RollSession.class",
                    "org/arbiter/kit/CommandTemplate.class", "org/arbiter/kit/PlayerLink.class", "org/arbiter/kit/Verifier.class")) {
                T.check(e.contains(c), "the extension holds " + c + " at its package path");
                T.check(k.contains(c), "the kit jar holds " + c);
            }
            Set<String> extClasses = new TreeSet<>();
            for (String n : e) if (n.endsWith(".class")) extClasses.add(n);
            Set<String> jarClasses = new TreeSet<>();
            for (String n : k) if (n.endsWith(".class")) jarClasses.add(n);
            T.equal(extClasses, jarClasses, "the extension and the jar hold the same classes");
            for (String n : e) {
                T.check(n.startsWith("org/arbiter/kit/") || n.equals("org/") || n.equals("org/arbiter/") || n.equals("buildFile.xml") || n.equals("extensiondata"), "nothing else in the extension: " + n);
            }
            for (String n : k) {
                T.check(!n.startsWith("VASSAL/"), "no stand-in of VASSAL in the jar: " + n);
                T.check(n.startsWith("org/arbiter/kit/") || n.startsWith("META-INF/") || n.equals("org/") || n.equals("org/arbiter/"), "nothing else in the jar: " + n);
            }
            int checked = 0;
            for (String n : extClasses) {
                byte[] b = ext.getInputStream(ext.getEntry(n)).readAllBytes();
                boolean magic = (b[0] & 0xff) == 0xca && (b[1] & 0xff) == 0xfe && (b[2] & 0xff) == 0xba && (b[3] & 0xff) == 0xbe;
                int major = ((b[6] & 0xff) << 8) | (b[7] & 0xff);
                int minor = ((b[4] & 0xff) << 8) | (b[5] & 0xff);
                // DataArchive.findClass refuses anything newer than 61.0 with a dialog.
                if (!T.check(magic && major == 61 && minor == 0, n + ": a class file for Java 17 (61.0), got " + major + "." + minor)) break;
                checked++;
            }
            T.check(checked > 20, checked + " class files checked");
        }
    }

    static Document xml(ZipFile zip, String name) throws Exception {
        try (InputStream in = zip.getInputStream(zip.getEntry(name))) {
            DocumentBuilderFactory f = DocumentBuilderFactory.newInstance();
            f.setFeature("http://apache.org/xml/features/disallow-doctype-decl", true);
            return f.newDocumentBuilder().parse(new ByteArrayInputStream(in.readAllBytes()));
        }
    }

    static List<Element> children(Element e) {
        List<Element> out = new ArrayList<>();
        for (Node n = e.getFirstChild(); n != null; n = n.getNextSibling()) if (n.getNodeType() == Node.ELEMENT_NODE) out.add((Element) n);
        return out;
    }

    /** VersionUtils.compareVersions for plain dotted numbers. */
    static int compareVersions(String a, String b) {
        String[] x = a.split("\\."), y = b.split("\\.");
        for (int i = 0; i < Math.max(x.length, y.length); i++) {
            int p = i < x.length ? Integer.parseInt(x[i]) : 0, q = i < y.length ? Integer.parseInt(y[i]) : 0;
            if (p != q) return Integer.compare(p, q);
        }
        return 0;
    }

    static Set<String> stringConstants(Class<?> c) throws Exception {
        Set<String> out = new HashSet<>();
        for (Class<?> k = c; k != null; k = k.getSuperclass()) {
            for (Field f : k.getDeclaredFields()) {
                int m = f.getModifiers();
                if (Modifier.isPublic(m) && Modifier.isStatic(m) && Modifier.isFinal(m) && f.getType() == String.class) out.add((String) f.get(null));
            }
        }
        return out;
    }

    static void buildFile(File vmdx, File standIns) throws Exception {
        try (ZipFile zip = new ZipFile(vmdx); URLClassLoader loader = new URLClassLoader(new URL[] {vmdx.toURI().toURL(), standIns.toURI().toURL()}, null)) {
            Element root = xml(zip, "buildFile.xml").getDocumentElement();
            T.equal(root.getTagName(), "VASSAL.build.module.ModuleExtension", "the root is a ModuleExtension (MetaDataFactory, ModuleExtension.build)");
            T.equal(root.getAttribute("anyModule"), "true", "anyModule=\"true\": any module loads it, whatever its name and version");
            NamedNodeMap attrs = root.getAttributes();
            T.equal(attrs.item(0).getNodeName(), "anyModule", "anyModule comes first in the order VASSAL sets the attributes (before module and moduleVersion are checked)");
            Set<String> known = Set.of("anyModule", "version", "description", "module", "moduleVersion", "vassalVersion", "nextPieceSlotId", "extensionId");
            for (int i = 0; i < attrs.getLength(); i++) T.check(known.contains(attrs.item(i).getNodeName()), "a ModuleExtension attribute VASSAL reads: " + attrs.item(i).getNodeName());
            T.check(root.getAttribute("version").matches("[0-9]+(\\.[0-9]+)*"), "a version: " + root.getAttribute("version"));
            T.check(root.getAttribute("nextPieceSlotId").matches("[0-9]+"), "nextPieceSlotId is a number");
            String vassal = root.getAttribute("vassalVersion");
            T.check(vassal.matches("3\\.[0-9]+\\.[0-9]+") && compareVersions(vassal, "3.7.0") <= 0 && compareVersions(vassal, "3.5") >= 0,
                    "vassalVersion " + vassal + ": no newer than 3.7.0 (VASSAL 3.7 warns about an extension made by a newer VASSAL)");
            List<Element> elements = children(root);
            Set<String> components = new TreeSet<>();
            for (Element wrapper : elements) {
                T.equal(wrapper.getTagName(), "VASSAL.build.module.ExtensionElement", "each component is wrapped in an ExtensionElement");
                T.check(wrapper.hasAttribute("target") && wrapper.getAttribute("target").isEmpty(), "target=\"\": added to the module itself (ComponentPathBuilder: an empty path)");
                List<Element> inner = children(wrapper);
                if (!T.equal(inner.size(), 1, "one component per ExtensionElement")) continue;
                Element component = inner.get(0);
                String name = component.getTagName();
                components.add(name);
                T.check(zip.getEntry(name.replace('.', '/') + ".class") != null, name + ": its class is in the extension at its package path (DataArchive.findClass)");
                Class<?> c = Class.forName(name, false, loader);
                T.check(Class.forName("VASSAL.build.AbstractToolbarItem", false, loader).isAssignableFrom(c), name + " is a toolbar item (AbstractToolbarItem)");
                T.check(Modifier.isPublic(c.getModifiers()) && !Modifier.isAbstract(c.getModifiers()) && Modifier.isPublic(c.getConstructor().getModifiers()), name + ": public, concrete, a public no-argument constructor (Builder.create)");
                Method typeName = c.getMethod("getConfigureTypeName");
                T.check(Modifier.isStatic(typeName.getModifiers()) && ((String) typeName.invoke(null)).startsWith("Arbiter"), name + ": its name in the editor: " + typeName.invoke(null));
                Set<String> reads = stringConstants(c);
                NamedNodeMap a = component.getAttributes();
                for (int i = 0; i < a.getLength(); i++) T.check(reads.contains(a.item(i).getNodeName()), name + ": the attribute " + a.item(i).getNodeName() + " is one the component reads");
                T.check(!component.getAttribute("name").isEmpty() && !component.getAttribute("text").isEmpty(), name + ": a name and a button text on the toolbar");
            }
            T.equal(components, new TreeSet<>(List.of("org.arbiter.kit.vassal.ArbiterCommandButton", "org.arbiter.kit.vassal.ArbiterDiceButton")), "the dice button and the command button");
        }
    }

    static void extensionData(File vmdx) throws Exception {
        try (ZipFile zip = new ZipFile(vmdx)) {
            Element data = xml(zip, "extensiondata").getDocumentElement();
            T.equal(data.getTagName(), "data", "root element data (AbstractMetaData)");
            T.equal(data.getAttribute("version"), "1", "metadata version 1 (ExtensionMetaData.DATA_VERSION)");
            String vassal = data.getElementsByTagName("VassalVersion").item(0).getTextContent().trim();
            T.check(compareVersions(vassal, "3.5") >= 0, "VassalVersion " + vassal + " ≥ 3.5: VASSAL reads buildFile.xml, not the old buildFile");
            T.equal(data.getElementsByTagName("universal").item(0).getTextContent().trim(), "true", "universal (the Module Manager lists it for any module)");
            T.check(!data.getElementsByTagName("version").item(0).getTextContent().isBlank(), "a version");
            Element root = xml(zip, "buildFile.xml").getDocumentElement();
            T.equal(data.getElementsByTagName("version").item(0).getTextContent().trim(), root.getAttribute("version"), "the same version as the buildFile");
        }
    }
}
