; Inno Setup 6 script: Warp Explorer for Windows (x64), from the PyInstaller one-dir bundle.
;
;   iscc /DAppVersion=0.1.0 /DBundleDir=..\..\dist\warp-explorer /DIconFile=..\..\build\icons\warp-explorer.ico ^
;        /O..\..\dist packaging\windows\warp-explorer.iss
;
; packaging/windows/build.ps1 runs PyInstaller and then this. NOT TESTED: we could not run
; Windows where this was written (packaging/README.md). Per-user install by default (no
; administrator rights needed; the dialog offers all users); optional desktop icon and PATH.

#ifndef AppVersion
  #define AppVersion "0.0.0"
#endif
#ifndef BundleDir
  #define BundleDir "..\..\dist\warp-explorer"
#endif

[Setup]
AppId={{4AEA32DF-DDE0-4493-ABE7-C106893A6387}
AppName=Warp Explorer
AppVersion={#AppVersion}
AppVerName=Warp Explorer {#AppVersion}
AppPublisher=Warp Explorer contributors
DefaultDirName={autopf}\Warp Explorer
DefaultGroupName=Warp Explorer
DisableProgramGroupPage=yes
OutputBaseFilename=warp-explorer-{#AppVersion}-windows-x64-setup
#ifdef IconFile
SetupIconFile={#IconFile}
#endif
UninstallDisplayIcon={app}\warp-explorer-gui.exe
Compression=lzma2
SolidCompression=yes
WizardStyle=modern
ArchitecturesAllowed=x64compatible
ArchitecturesInstallIn64BitMode=x64compatible
PrivilegesRequired=lowest
PrivilegesRequiredOverridesAllowed=dialog
ChangesEnvironment=yes
MinVersion=10.0

[Languages]
Name: "english"; MessagesFile: "compiler:Default.isl"
Name: "russian"; MessagesFile: "compiler:Languages\Russian.isl"

[Tasks]
Name: "desktopicon"; Description: "{cm:CreateDesktopIcon}"; GroupDescription: "{cm:AdditionalIcons}"; Flags: unchecked
Name: "addtopath"; Description: "Add the warp-explorer command to PATH"; Flags: unchecked

[Files]
Source: "{#BundleDir}\*"; DestDir: "{app}"; Flags: ignoreversion recursesubdirs createallsubdirs

[Icons]
Name: "{autoprograms}\Warp Explorer"; Filename: "{app}\warp-explorer-gui.exe"; WorkingDir: "{userdocs}"
Name: "{autodesktop}\Warp Explorer"; Filename: "{app}\warp-explorer-gui.exe"; WorkingDir: "{userdocs}"; Tasks: desktopicon

[Registry]
; PATH for the command-line warp-explorer.exe: the user's PATH (per-user install) or the system's
Root: HKCU; Subkey: "Environment"; ValueType: expandsz; ValueName: "Path"; ValueData: "{olddata};{app}"; \
    Tasks: addtopath; Check: (not IsAdminInstallMode) and NeedsAddPath(ExpandConstant('{app}'))
Root: HKLM; Subkey: "SYSTEM\CurrentControlSet\Control\Session Manager\Environment"; ValueType: expandsz; \
    ValueName: "Path"; ValueData: "{olddata};{app}"; \
    Tasks: addtopath; Check: IsAdminInstallMode and NeedsAddPath(ExpandConstant('{app}'))

[Run]
Filename: "{app}\warp-explorer-gui.exe"; Description: "{cm:LaunchProgram,Warp Explorer}"; Flags: nowait postinstall skipifsilent

[UninstallDelete]
; numba's compiled simulator (re-created on the next start)
Type: filesandordirs; Name: "{localappdata}\warp-explorer\numba"

[Code]
function NeedsAddPath(Dir: string): Boolean;
var
  Paths: string;
  RootKey: Integer;
  SubKey: string;
begin
  if IsAdminInstallMode then begin
    RootKey := HKEY_LOCAL_MACHINE;
    SubKey := 'SYSTEM\CurrentControlSet\Control\Session Manager\Environment';
  end else begin
    RootKey := HKEY_CURRENT_USER;
    SubKey := 'Environment';
  end;
  if not RegQueryStringValue(RootKey, SubKey, 'Path', Paths) then begin
    Result := True;
    exit;
  end;
  Result := Pos(';' + Uppercase(Dir) + ';', ';' + Uppercase(Paths) + ';') = 0;
end;
