# Windows build: PyInstaller one-dir bundle + Inno Setup installer.
#   powershell -ExecutionPolicy Bypass -File packaging\windows\build.ps1 [-Out dist] [-Python python]
# Needs Python 3.11+ (x64) and Inno Setup 6 (iscc.exe on PATH or in its default folder).
# NOT TESTED here (no Windows machine); the CI workflow .github/workflows/packages.yml runs it
# on GitHub's windows-latest runner.
param(
    [string]$Out = "dist",
    [string]$Python = "python"
)
$ErrorActionPreference = "Stop"
$Root = Resolve-Path (Join-Path $PSScriptRoot "..\..")
Set-Location $Root
$sw = [Diagnostics.Stopwatch]::StartNew()

& $Python -m venv "$Out\venv"
$Py = Join-Path $Out "venv\Scripts\python.exe"
& $Py -m pip install -q --upgrade pip
& $Py -m pip install -q ".[gpu]" -r packaging\requirements-build.txt
if ($LASTEXITCODE -ne 0) { throw "pip install failed" }
$Version = & $Py -c "import explorer; print(explorer.__version__)"

& $Py packaging\make_icons.py "$Out\icons"
$env:WARP_EXPLORER_ICON_DIR = (Resolve-Path "$Out\icons").Path
& $Py -m PyInstaller --noconfirm --clean --log-level WARN --distpath $Out --workpath "$Out\work" packaging\warp-explorer.spec
if ($LASTEXITCODE -ne 0) { throw "PyInstaller failed" }
$Bundle = Join-Path $Out "warp-explorer"

# does it start? (offscreen: no window; the smoke test writes a PNG and prints one line)
$env:QT_QPA_PLATFORM = "offscreen"
& "$Bundle\warp-explorer.exe" --version
& "$Bundle\warp-explorer.exe" --smoke-test
if ($LASTEXITCODE -ne 0) { throw "the bundle's smoke test failed" }
Remove-Item Env:QT_QPA_PLATFORM

$Iscc = (Get-Command iscc.exe -ErrorAction SilentlyContinue).Source
if (-not $Iscc) { $Iscc = "${env:ProgramFiles(x86)}\Inno Setup 6\ISCC.exe" }
& $Iscc "/DAppVersion=$Version" "/DBundleDir=$((Resolve-Path $Bundle).Path)" `
    "/DIconFile=$env:WARP_EXPLORER_ICON_DIR\warp-explorer.ico" "/O$((Resolve-Path $Out).Path)" packaging\windows\warp-explorer.iss
if ($LASTEXITCODE -ne 0) { throw "Inno Setup failed" }

$zip = Join-Path $Out "warp-explorer-$Version-windows-x64.zip"
Compress-Archive -Path $Bundle -DestinationPath $zip -Force
$bundleMB = [math]::Round((Get-ChildItem $Bundle -Recurse | Measure-Object Length -Sum).Sum / 1MB)
Write-Host "bundle $bundleMB MiB; installer and zip in $Out; $([math]::Round($sw.Elapsed.TotalSeconds)) s"
