<?xml version="1.0" encoding="utf-8"?>
<!DOCTYPE TS>
<TS version="2.1" language="ru_RU" sourcelanguage="en">
<context>
    <name>AnimationDialog</name>
    <message>
        <location filename="../../explorer/gui/files/export_menu.py" line="+424"/>
        <source>Export Animation</source>
        <translation>Экспорт анимации</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>The Explorer tab</source>
        <translation>Вкладка «Обозреватель»</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>Animated GIF</source>
        <translation>Анимированный GIF</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>MP4 video</source>
        <translation>Видео MP4</translation>
    </message>
    <message>
        <location line="+14"/>
        <source> cycles</source>
        <translation> тактов</translation>
    </message>
    <message>
        <location line="+8"/>
        <source>&amp;Cycles:</source>
        <translation>&amp;Такты:</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>&amp;One frame every:</source>
        <translation>&amp;Кадр каждые:</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Frames per &amp;second:</source>
        <translation>Кадров в &amp;секунду:</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>&amp;Resolution:</source>
        <translation>&amp;Разрешение:</translation>
    </message>
    <message>
        <location line="+18"/>
        <location line="+24"/>
        <source>The last cycle must come after the first.</source>
        <translation>Последний такт должен идти после первого.</translation>
    </message>
    <message>
        <location line="-22"/>
        <source>{n} frames, {secs} s</source>
        <translation>Кадров: {n}, {secs} с</translation>
    </message>
    <message>
        <location line="+7"/>
        <source>MP4 needs the optional video extra: {hint}</source>
        <translation>Для MP4 нужен необязательный пакет video: {hint}</translation>
    </message>
    <message>
        <location line="+18"/>
        <source>{n} frames is more than {max}; take a frame every more cycles.</source>
        <translation>Кадров: {n}, это больше {max}; берите кадр реже (через большее число тактов).</translation>
    </message>
</context>
<context>
    <name>ArgumentsForm</name>
    <message>
        <location filename="../../explorer/gui/kernel/args_form.py" line="+37"/>
        <source>Open a .cu file and pick a kernel: its parameters appear here.</source>
        <translation>Откройте файл .cu и выберите ядро: здесь появятся его параметры.</translation>
    </message>
    <message>
        <location line="+4"/>
        <source>zeros</source>
        <translation>нули</translation>
    </message>
    <message>
        <location line="+0"/>
        <source>ones</source>
        <translation>единицы</translation>
    </message>
    <message>
        <location line="+0"/>
        <source>0, 1, 2, …</source>
        <translation>0, 1, 2, …</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>random</source>
        <translation>случайные</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>Every element 0 before the kernel runs.</source>
        <translation>Каждый элемент равен 0 до запуска ядра.</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Every element 1 before the kernel runs.</source>
        <translation>Каждый элемент равен 1 до запуска ядра.</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Element i holds i before the kernel runs.</source>
        <translation>Элемент i равен i до запуска ядра.</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Seeded random numbers (the scenario&apos;s seed): [0, 1) for floats, [0, 256) for integers.</source>
        <translation>Случайные числа с зерном сценария: [0, 1) для вещественных, [0, 256) для целых.</translation>
    </message>
    <message>
        <location line="+21"/>
        <source>The parameter&apos;s type as the kernel declares it.</source>
        <translation>Тип параметра, как его объявляет ядро.</translation>
    </message>
    <message>
        <location line="+17"/>
        <source>A vector by value: {n} numbers separated by commas.</source>
        <translation>Вектор по значению: {n} числа через запятую.</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>true or false.</source>
        <translation>true или false.</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>A number passed by value ({dtype}).</source>
        <translation>Число, передаваемое по значению ({dtype}).</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>An integer passed by value ({dtype}: the type&apos;s range is checked).</source>
        <translation>Целое число по значению ({dtype}: диапазон типа проверяется).</translation>
    </message>
    <message>
        <location line="+14"/>
        <source>The buffer&apos;s element type: the pointer&apos;s own (void* and structs take any).</source>
        <translation>Тип элементов буфера: тип указателя (void* и структуры принимают любой).</translation>
    </message>
    <message>
        <location line="+4"/>
        <source>Elements in the buffer; the kernel may touch only these (an access outside every buffer stops the run, naming the thread and address).</source>
        <translation>Число элементов буфера; ядро может обращаться только к ним (доступ вне всех буферов останавливает запуск с указанием потока и адреса).</translation>
    </message>
    <message>
        <location line="+12"/>
        <source>What the buffer holds before the kernel runs.</source>
        <translation>Что лежит в буфере до запуска ядра.</translation>
    </message>
    <message>
        <location line="+20"/>
        <source>Give a value</source>
        <translation>Введите значение</translation>
    </message>
</context>
<context>
    <name>AttentionTexts</name>
    <message>
        <location filename="../../explorer/texts/gemm.py" line="+128"/>
        <source>forward pass only, no mask, no dropout; the 1/sqrt(d) scale is folded into the softmax</source>
        <translation>только прямой проход, без маски и dropout; множитель 1/sqrt(d) учтён в softmax</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>S and P are stored in {dtype} ({b} B per element); Q, K, V and O too</source>
        <translation>S и P хранятся в {dtype} ({b} Б на элемент); Q, K, V и O — тоже</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>softmax = {flop} FLOP per score (max, subtract, exp, sum, divide); exp also occupies the SFU ({lanes} lanes per sub-partition)</source>
        <translation>softmax = {flop} FLOP на оценку (максимум, вычитание, exp, сумма, деление); exp к тому же занимает SFU ({lanes} линий на подраздел SM)</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>flash: FlashAttention-2 loop order (query blocks outer, key/value blocks inner); the SMs read K and V once per query block (global_bytes, exact: FlashAttention&apos;s IO accounting); logsumexp saved in FP32</source>
        <translation>flash: порядок циклов FlashAttention-2 (внешний — по блокам запросов, внутренний — по блокам ключей/значений); SM читают K и V один раз на блок запросов (global_bytes, точно: учёт ввода-вывода FlashAttention); logsumexp сохраняется в FP32</translation>
    </message>
    <message>
        <location line="+4"/>
        <source>flash HBM bytes: one CTA per SM, so about {h} (batch, head) pairs are in flight; their K and V ({ws} B) fit the usable L2 ({frac} x {l2} B), so the K/V re-reads come from L2 and HBM sees K and V once</source>
        <translation>байты HBM у flash: по одному CTA на SM, поэтому одновременно в работе около {h} пар (пакет, голова); их K и V ({ws} Б) помещаются в доступную часть L2 ({frac} × {l2} Б), поэтому повторные чтения K/V идут из L2, а HBM видит K и V один раз</translation>
    </message>
    <message>
        <location line="+4"/>
        <source>flash HBM bytes: one CTA per SM, so about {h} (batch, head) pairs are in flight; their K and V ({ws} B) do not fit the usable L2 ({frac} x {l2} B), so every K/V re-read comes from HBM</source>
        <translation>байты HBM у flash: по одному CTA на SM, поэтому одновременно в работе около {h} пар (пакет, голова); их K и V ({ws} Б) не помещаются в доступную часть L2 ({frac} × {l2} Б), поэтому каждое повторное чтение K/V идёт из HBM</translation>
    </message>
    <message>
        <location line="+4"/>
        <source>naive: S and P ({s} B each) go to global memory; the next kernel&apos;s read of them hits L2 (they fit the usable L2); their writes still reach HBM</source>
        <translation>наивное: S и P (по {s} Б) записываются в глобальную память; чтение их следующим ядром попадает в L2 (они помещаются в доступную часть L2); их записи всё равно доходят до HBM</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>naive: S and P ({s} B each) go to global memory; the next kernel&apos;s read of them comes from HBM (they do not fit the usable L2)</source>
        <translation>наивное: S и P (по {s} Б) записываются в глобальную память; следующее ядро читает их из HBM (они не помещаются в доступную часть L2)</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>each kernel takes max(matmul at {tflops} TFLOPS + other FLOPs at the FP32 peak, exps on the SFUs, HBM bytes at {eff} x {bw} GB/s, global bytes at the L2&apos;s {l2bw} GB/s); the largest is the bound; a kernel&apos;s own tiling and waves are not modelled; launch overhead is reported apart</source>
        <translation>каждое ядро занимает максимум из: умножение матриц при {tflops} TFLOPS + прочие FLOP при пике FP32, exp на SFU, байты HBM при {eff} × {bw} ГБ/с, глобальные байты при {l2bw} ГБ/с L2; наибольшее и есть ограничение; собственное разбиение ядра на плитки и волны не моделируются; накладные расходы на запуск указаны отдельно</translation>
    </message>
    <message>
        <location line="+5"/>
        <source>blocks {bq}x{kv} do not fit {gpu}&apos;s shared memory at head size {d}; using {br}x{bc}</source>
        <translation>блоки {bq}x{kv} не помещаются в разделяемую память {gpu} при размере головы {d}; берём {br}x{bc}</translation>
    </message>
</context>
<context>
    <name>AttentionView</name>
    <message>
        <location filename="../../explorer/gui/gemm/memory_page.py" line="+638"/>
        <source>Attention: naive vs FlashAttention-style (one head, forward pass)</source>
        <translation>Внимание (attention): наивное против FlashAttention (одна голова, прямой проход)</translation>
    </message>
    <message>
        <location line="+6"/>
        <source>Sequence length &amp;N:</source>
        <translation>Длина последовательности &amp;N:</translation>
    </message>
    <message>
        <location line="+0"/>
        <source>Tokens in the sequence (rows of Q, K and V).</source>
        <translation>Число токенов в последовательности (строк Q, K и V).</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Columns of Q, K and V per head.</source>
        <translation>Столбцов Q, K и V на одну голову.</translation>
    </message>
    <message>
        <location line="+18"/>
        <source>Data type:</source>
        <translation>Тип данных:</translation>
    </message>
    <message>
        <location line="+5"/>
        <source>Naive (3 kernels)</source>
        <translation>Наивное (3 ядра)</translation>
    </message>
    <message>
        <location line="+0"/>
        <source>FlashAttention-style (1 kernel)</source>
        <translation>В стиле FlashAttention (1 ядро)</translation>
    </message>
    <message>
        <location line="+0"/>
        <location line="+17"/>
        <source>Naive ÷ flash</source>
        <translation>Наивное ÷ flash</translation>
    </message>
    <message>
        <location line="-14"/>
        <source>FLOPs</source>
        <translation>FLOP</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Predicted time</source>
        <translation>Прогноз времени</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Limited by</source>
        <translation>Ограничено</translation>
    </message>
    <message>
        <location line="+0"/>
        <source>Shared memory per CTA</source>
        <translation>Разделяемая память на CTA</translation>
    </message>
    <message>
        <location line="+35"/>
        <source>HBM bytes:</source>
        <translation>Байты HBM:</translation>
    </message>
    <message>
        <location line="-23"/>
        <location line="+26"/>
        <source>naive</source>
        <translation>наивное</translation>
    </message>
    <message>
        <location line="-26"/>
        <location line="+28"/>
        <source>flash</source>
        <translation>flash</translation>
    </message>
    <message>
        <location line="-4"/>
        <source>Time:</source>
        <translation>Время:</translation>
    </message>
    <message>
        <location line="-64"/>
        <source>Head si&amp;ze d:</source>
        <translation>&amp;Размер головы d:</translation>
    </message>
    <message>
        <location line="+25"/>
        <source>Bytes through L2 (exact)</source>
        <translation>Байты через L2 (точно)</translation>
    </message>
    <message>
        <location line="+0"/>
        <source>HBM bytes (modelled)</source>
        <translation>Байты HBM (модель)</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Re-reads come from</source>
        <translation>Повторные чтения из</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>FLOP per HBM byte</source>
        <translation>FLOP на байт HBM</translation>
    </message>
    <message>
        <location line="+4"/>
        <source>Every byte the SMs read from or write to global memory, all of which crosses L2: exact for the algorithm and its tiling (FlashAttention&apos;s IO accounting).</source>
        <translation>Все байты, которые SM читают из глобальной памяти или пишут в неё; все они проходят через L2: точно для алгоритма и его разбиения на плитки (учёт ввода-вывода FlashAttention).</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>The part of those bytes that reaches device memory: a re-read is served by L2 when what it re-reads fits there. The predicted time uses these bytes.</source>
        <translation>Часть этих байтов, доходящая до памяти устройства: повторное чтение обслуживает L2, если перечитываемое там помещается. Прогноз времени использует эти байты.</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>Where a kernel&apos;s second and later reads of the same data come from: L2 if it fits the usable L2, else HBM.</source>
        <translation>Откуда ядро берёт второе и последующие чтения тех же данных: из L2, если они помещаются в доступную L2, иначе из HBM.</translation>
    </message>
    <message>
        <location line="+27"/>
        <source>Through L2:</source>
        <translation>Через L2:</translation>
    </message>
    <message>
        <location line="+90"/>
        <source>enter a whole number</source>
        <translation>введите целое число</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>Invalid input: showing the last valid comparison.</source>
        <translation>Неверный ввод: показано последнее корректное сравнение.</translation>
    </message>
    <message>
        <location line="+7"/>
        <source>compute</source>
        <translation>вычисления</translation>
    </message>
    <message>
        <location line="+0"/>
        <source>exp on the SFUs</source>
        <translation>exp на блоках SFU</translation>
    </message>
    <message>
        <location line="+0"/>
        <source>HBM bandwidth</source>
        <translation>пропускная способность HBM</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>L2 bandwidth</source>
        <translation>пропускная способность L2</translation>
    </message>
    <message>
        <location line="+4"/>
        <source>L2</source>
        <translation>L2</translation>
    </message>
    <message>
        <location line="+0"/>
        <source>HBM</source>
        <translation>HBM</translation>
    </message>
    <message>
        <location line="+17"/>
        <location line="+1"/>
        <source>{v} FLOP/B</source>
        <translation>{v} FLOP/Б</translation>
    </message>
    <message>
        <location line="+28"/>
        <source>At N = {n}, d = {d} the FlashAttention-style kernel moves {g}× fewer bytes through L2 ({gf} vs {gn}, exact): the N × N scores S and probabilities P ({sp} each) never leave the chip.</source>
        <translation>При N = {n}, d = {d} ядро в стиле FlashAttention пропускает через L2 в {g}× меньше байтов ({gf} против {gn}, точно): оценки S и вероятности P размером N × N ({sp} каждая) не покидают кристалл.</translation>
    </message>
    <message>
        <location line="+6"/>
        <source>Its K/V re-reads come from L2 (K and V of the heads in flight fit there), so HBM sees {r}× fewer bytes ({hf} vs {hn}, modelled).</source>
        <translation>Его повторные чтения K/V приходят из L2 (K и V обрабатываемых голов там помещаются), поэтому до HBM доходит в {r}× меньше байтов ({hf} против {hn}, модель).</translation>
    </message>
    <message>
        <location line="+4"/>
        <source>Its K/V re-reads come from HBM (they do not fit the L2), so HBM sees the same {r}× fewer bytes ({hf} vs {hn}).</source>
        <translation>Его повторные чтения K/V приходят из HBM (в L2 они не помещаются), поэтому до HBM доходит те же в {r}× меньше байтов ({hf} против {hn}).</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>Predicted {tf}, limited by {bf}, against {tn}, limited by {bn}: {s}× faster on the {gpu}, for exactly the same result.</source>
        <translation>Прогноз {tf} (ограничение: {bf}) против {tn} (ограничение: {bn}): в {s}× быстрее на {gpu} при точно том же результате.</translation>
    </message>
    <message>
        <location line="-37"/>
        <source>(its GEMMs&apos; own tiling)</source>
        <translation>(собственное разбиение его GEMM на плитки)</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>{b} (blocks of {q} and {kv} rows)</source>
        <translation>{b} (блоки из {q} и {kv} строк)</translation>
    </message>
    <message>
        <location line="+11"/>
        <source>&lt;b&gt;Assumptions&lt;/b&gt; (bytes and FLOPs are exact; times are estimates):</source>
        <translation>&lt;b&gt;Допущения&lt;/b&gt; (байты и FLOP точные; время — оценка):</translation>
    </message>
</context>
<context>
    <name>CoalescingView</name>
    <message>
        <location line="-348"/>
        <source>Coalesced vs strided loads: bytes per request</source>
        <translation>Объединённые и разреженные загрузки: байты на запрос</translation>
    </message>
    <message>
        <location line="+4"/>
        <source>{b} bytes per thread</source>
        <translation>{b} Б на поток</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>The size each thread loads: 4 = a float, 16 = a float4 vector load.</source>
        <translation>Сколько загружает каждый поток: 4 — один float, 16 — векторная загрузка float4.</translation>
    </message>
    <message>
        <location line="+10"/>
        <source>Each thread loads:</source>
        <translation>Каждый поток загружает:</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>&lt;span style=&quot;color:{u}&quot;&gt;■&lt;/span&gt; bytes the threads use &amp;nbsp; &lt;span style=&quot;color:{w}&quot;&gt;▨&lt;/span&gt; bytes moved but not used</source>
        <translation>&lt;span style=&quot;color:{u}&quot;&gt;■&lt;/span&gt; байты, которые используют потоки &amp;nbsp; &lt;span style=&quot;color:{w}&quot;&gt;▨&lt;/span&gt; перемещённые, но неиспользованные байты</translation>
    </message>
    <message>
        <location line="+19"/>
        <source>A warp&apos;s 32 threads each load {b} B, neighbouring threads &lt;i&gt;stride&lt;/i&gt; elements apart. Memory moves whole 32-byte sectors, so the further apart the threads read, the more bytes move for the same {useful} B the warp uses.</source>
        <translation>Каждый из 32 потоков варпа загружает {b} Б, соседние потоки отстоят на &lt;i&gt;stride&lt;/i&gt; элементов. Память перемещает целые 32-байтовые секторы, поэтому чем дальше друг от друга читают потоки, тем больше байтов перемещается ради тех же {useful} Б, которые использует варп.</translation>
    </message>
    <message>
        <location line="+16"/>
        <source>stride {s}</source>
        <translation>шаг {s}</translation>
    </message>
    <message>
        <location line="+1"/>
        <source> (coalesced)</source>
        <translation> (объединённые)</translation>
    </message>
    <message>
        <location line="-13"/>
        <source>{moved} B moved, {sectors} sectors · {eff}% used</source>
        <translation>перемещено {moved} Б, секторов: {sectors} · использовано {eff}%</translation>
    </message>
</context>
<context>
    <name>CompareActions</name>
    <message>
        <location filename="../../explorer/gui/compare/feature.py" line="+34"/>
        <source>A/&amp;B compare</source>
        <translation>Сравнение A/&amp;B</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>&amp;Compare A and B</source>
        <translation>&amp;Сравнить A и B</translation>
    </message>
    <message>
        <location line="+4"/>
        <source>Show the pinned run (A) beside the Explorer&apos;s run (B), pinning the Explorer&apos;s run first when nothing is pinned; again to go back to the Explorer.</source>
        <translation>Показать закреплённый прогон (A) рядом с прогоном обозревателя (B), сначала закрепив прогон обозревателя, если ничего не закреплено; повторно — вернуться в обозреватель.</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>&amp;Pin the Explorer&apos;s run as A</source>
        <translation>&amp;Закрепить прогон обозревателя как A</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>Keep the run on screen as A, to compare the next ones with.</source>
        <translation>Оставить прогон на экране как A, чтобы сравнивать с ним следующие.</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>&amp;Unpin A</source>
        <translation>&amp;Открепить A</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>Forget the pinned run.</source>
        <translation>Забыть закреплённый прогон.</translation>
    </message>
    <message>
        <location line="+20"/>
        <source>Pinned the Explorer&apos;s run as A.</source>
        <translation>Прогон обозревателя закреплён как A.</translation>
    </message>
</context>
<context>
    <name>CompareFeature</name>
    <message>
        <location line="+8"/>
        <source>A/&amp;B compare</source>
        <translation>Сравнение A/&amp;B</translation>
    </message>
</context>
<context>
    <name>ComparePage</name>
    <message>
        <location filename="../../explorer/gui/compare/page.py" line="+70"/>
        <source>&lt;b&gt;A/B compare&lt;/b&gt;</source>
        <translation>&lt;b&gt;Сравнение A/B&lt;/b&gt;</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>Same cycle (aligned at launch)</source>
        <translation>Один и тот же такт (от запуска)</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Same share of each run</source>
        <translation>Одна и та же доля каждого прогона</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Same cycle: both columns show the same cycle since launch; a shorter run shows its end. Same share: both are the same fraction of the way through.</source>
        <translation>Один такт: обе колонки показывают один и тот же такт от запуска; более короткий прогон показывает свой конец. Одна доля: оба прогона пройдены на одну и ту же долю.</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>Align:</source>
        <translation>Выравнивание:</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>Pin B as A</source>
        <translation>Закрепить B как A</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>Make the Explorer&apos;s current run the new A (Ctrl+Shift+B).</source>
        <translation>Сделать текущий прогон обозревателя новым A (Ctrl+Shift+B).</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Unpin A</source>
        <translation>Открепить A</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>Forget the pinned run.</source>
        <translation>Забыть закреплённый прогон.</translation>
    </message>
    <message>
        <location line="+127"/>
        <source>Nothing to pin yet: the Explorer is still simulating.</source>
        <translation>Закреплять пока нечего: обозреватель ещё симулирует.</translation>
    </message>
    <message>
        <location line="+57"/>
        <source>&lt;b&gt;A&lt;/b&gt; · pinned</source>
        <translation>&lt;b&gt;A&lt;/b&gt; · закреплён</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>&lt;b&gt;B&lt;/b&gt; · the Explorer&apos;s run</source>
        <translation>&lt;b&gt;B&lt;/b&gt; · прогон обозревателя</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>invalid input in the Explorer: its last good run</source>
        <translation>в обозревателе некорректный ввод: его последний удачный прогон</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>the Explorer is simulating a new one…</source>
        <translation>Обозреватель симулирует новый…</translation>
    </message>
    <message>
        <location line="+9"/>
        <source>The Explorer is simulating…</source>
        <translation>Обозреватель симулирует…</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>Simulating the pinned scenario {name}…</source>
        <translation>Симуляция закреплённого сценария {name}…</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>The pinned scenario cannot be simulated: {why}</source>
        <translation>Закреплённый сценарий нельзя симулировать: {why}</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Nothing pinned: Ctrl+Shift+B pins the Explorer&apos;s run as A (Ctrl+B pins it and opens this view).</source>
        <translation>Ничего не закреплено: Ctrl+Shift+B закрепляет прогон обозревателя как A (Ctrl+B закрепляет его и открывает сравнение).</translation>
    </message>
    <message>
        <location line="+33"/>
        <source>Waiting for the Explorer&apos;s run.</source>
        <translation>Ожидание прогона обозревателя.</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>A and B are the same run: change the scenario in the Explorer (Ctrl+B goes there and back) and B follows.</source>
        <translation>A и B — один и тот же прогон: измените сценарий в обозревателе (Ctrl+B — туда и обратно), и B последует за ним.</translation>
    </message>
    <message>
        <location line="+4"/>
        <source>A and B are the same scenario, simulated twice.</source>
        <translation>A и B — один и тот же сценарий, просимулированный дважды.</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>{key} {a} → {b}</source>
        <translation>{key} {a} → {b}</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>and {n} more</source>
        <translation>и ещё {n}</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>B differs from A in: {changes}</source>
        <translation>B отличается от A: {changes}</translation>
    </message>
    <message>
        <location line="+5"/>
        <source>A/B compare: nothing pinned yet (Ctrl+Shift+B pins the Explorer&apos;s run).</source>
        <translation>Сравнение A/B: ничего не закреплено (Ctrl+Shift+B закрепляет прогон обозревателя).</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>A: {a} cycles · B: {b} cycles</source>
        <translation>A: тактов {a} · B: тактов {b}</translation>
    </message>
</context>
<context>
    <name>CompareTable</name>
    <message>
        <location filename="../../explorer/gui/compare/table.py" line="+56"/>
        <location line="+165"/>
        <location line="+4"/>
        <location line="+5"/>
        <source>same</source>
        <translation>без изменений</translation>
    </message>
    <message>
        <location line="-172"/>
        <source>B {x}× faster</source>
        <translation>B быстрее в {x} раза</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>B {x}× slower</source>
        <translation>B медленнее в {x} раза</translation>
    </message>
    <message>
        <location line="+27"/>
        <source>A (pinned)</source>
        <translation>A (закреплён)</translation>
    </message>
    <message>
        <location line="+0"/>
        <source>B (current)</source>
        <translation>B (текущий)</translation>
    </message>
    <message>
        <location line="+0"/>
        <source>B vs A</source>
        <translation>B против A</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>The run pinned as A.</source>
        <translation>Прогон, закреплённый как A.</translation>
    </message>
    <message>
        <location line="+0"/>
        <source>The run on screen in the Explorer.</source>
        <translation>Прогон на экране обозревателя.</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>How B differs from A: counts and times with their ratio, shares in percentage points (pp).</source>
        <translation>Чем B отличается от A: количества и время — с отношением, доли — в процентных пунктах (п. п.).</translation>
    </message>
    <message>
        <location line="+40"/>
        <source>Cycles</source>
        <translation>Такты</translation>
    </message>
    <message>
        <location line="+0"/>
        <source>SM clock cycles from launch until the last warp finished and its stores completed.</source>
        <translation>Такты SM от запуска до завершения последнего варпа и его записей в память.</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Kernel time</source>
        <translation>Время ядра</translation>
    </message>
    <message>
        <location line="+0"/>
        <source>The cycles at the GPU&apos;s boost clock, in microseconds.</source>
        <translation>Такты при boost-частоте GPU, в микросекундах.</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Theoretical occupancy</source>
        <translation>Теоретическая заполняемость</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>The most warps an SM can hold for this launch ÷ its warp slots, and the resource that limits it.</source>
        <translation>Наибольшее число варпов, которое SM вмещает при этом запуске, ÷ его слоты варпов, и ресурс, который это ограничивает.</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Achieved occupancy</source>
        <translation>Достигнутая заполняемость</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Resident warps averaged over the cycles an SM was active ÷ its warp slots.</source>
        <translation>Размещённые варпы, усреднённые по тактам активности SM, ÷ его слоты варпов.</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Issue slots used</source>
        <translation>Использовано слотов выдачи</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Instructions issued ÷ (cycles × SMs × schedulers): the share of issue capacity that did work.</source>
        <translation>Выданные инструкции ÷ (такты × SM × планировщики): доля возможностей выдачи, которая была занята работой.</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>DRAM bandwidth</source>
        <translation>Пропускная способность DRAM</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Bytes moved to and from device memory ÷ kernel time · its share of the GPU&apos;s peak.</source>
        <translation>Байты, переданные в память устройства и из неё, ÷ время ядра · доля от пика GPU.</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Bottleneck</source>
        <translation>Узкое место</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>What limits the run: the unit busiest against its peak, from the simulator&apos;s throughput units; without them, estimated: issue slots or DRAM when it reaches 60% of its peak, else latency, with the state most warps wait in.</source>
        <translation>Что ограничивает прогон: узел, сильнее всех загруженный относительно своего пика, по узлам пропускной способности симулятора; без них — оценка: слоты выдачи или DRAM, если загрузка достигает 60% пика, иначе задержка и состояние, в котором ждёт большинство варпов.</translation>
    </message>
    <message>
        <location line="+54"/>
        <source>{us} µs</source>
        <translation>{us} мкс</translation>
    </message>
    <message>
        <location line="+4"/>
        <source>{pct} ({limit})</source>
        <translation>{pct} ({limit})</translation>
    </message>
    <message>
        <location line="+10"/>
        <source>{bw} · {pct}</source>
        <translation>{bw} · {pct}</translation>
    </message>
    <message>
        <location line="+8"/>
        <source>{unit} ({state})</source>
        <translation>{unit} ({state})</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>{unit}: {pct} of peak</source>
        <translation>{unit}: {pct} пика</translation>
    </message>
    <message>
        <location line="+5"/>
        <source>changed</source>
        <translation>изменилось</translation>
    </message>
    <message>
        <location line="+4"/>
        <source>{pp} pp</source>
        <translation>{pp} п. п.</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>other limiter</source>
        <translation>другой ограничитель</translation>
    </message>
    <message>
        <location line="+10"/>
        <source>{delta} ({ratio})</source>
        <translation>{delta} ({ratio})</translation>
    </message>
</context>
<context>
    <name>CompareTexts</name>
    <message>
        <location filename="../../explorer/texts/figures.py" line="+94"/>
        <source>duration (first warp to last, cycles)</source>
        <translation>длительность (от первого варпа до последнего, такты)</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>mean block (cycles)</source>
        <translation>средний блок (такты)</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>achieved occupancy</source>
        <translation>достигнутая заполняемость</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>most warps resident on an SM</source>
        <translation>больше всего варпов на SM одновременно</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>most blocks live on an SM</source>
        <translation>больше всего блоков на SM одновременно</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>SMs busy (share of the kernel)</source>
        <translation>SM заняты (доля времени ядра)</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>SMs that ran as many blocks as measured</source>
        <translation>SM, выполнившие столько же блоков, сколько в измерении</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>kernel, stores complete (cycles)</source>
        <translation>ядро до завершения записей (такты)</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>within 5%</source>
        <translation>в пределах 5%</translation>
    </message>
    <message>
        <location line="+0"/>
        <source>within 15%</source>
        <translation>в пределах 15%</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>within 2 points</source>
        <translation>в пределах 2 п. п.</translation>
    </message>
    <message>
        <location line="+0"/>
        <source>within 5 points</source>
        <translation>в пределах 5 п. п.</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>off</source>
        <translation>мимо</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>simulated</source>
        <translation>симуляция</translation>
    </message>
    <message>
        <location line="+0"/>
        <source>measured</source>
        <translation>измерено</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>error</source>
        <translation>ошибка</translation>
    </message>
    <message>
        <location line="+0"/>
        <source>dispatch:</source>
        <translation>размещение:</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>note:</source>
        <translation>примечание:</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>n/a</source>
        <translation>н/д</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>the first {n} blocks placed on the SMs the measured launch put them on ({placed} as measured); later blocks where the simulated dispatcher found room</source>
        <translation>первые {n} блоков размещены на тех SM, куда их поставил измеренный запуск ({placed} — как в измерении); следующие — там, где симулированный диспетчер нашёл место</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>no first wave could be read from the records; the GPU&apos;s order: {source}</source>
        <translation>первую волну по записям восстановить не удалось; порядок SM этого GPU: {source}</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>L2 starts full of dirty lines, as the launch&apos;s flush left it ({bytes} B written back by the kernel&apos;s first allocations)</source>
        <translation>L2 в начале полон изменённых строк, как его оставила очистка перед запуском ({bytes} Б записывают обратно первые выделения ядра)</translation>
    </message>
</context>
<context>
    <name>CompileWatch</name>
    <message>
        <location filename="../../explorer/gui/common/compile_watch.py" line="+131"/>
        <source>Compiling the simulator once (about {s} s on an idle machine); later starts are instant.</source>
        <translation>Симулятор компилируется один раз (около {s} с на свободной машине); следующие запуски мгновенны.</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>Compiling the kernel interpreter once (about {s} s on an idle machine); later runs are instant.</source>
        <translation>Интерпретатор ядер компилируется один раз (около {s} с на свободной машине); следующие запуски мгновенны.</translation>
    </message>
    <message>
        <location line="+6"/>
        <source>This machine is busy: it is taking longer.</source>
        <translation>Машина занята: это займёт больше времени.</translation>
    </message>
</context>
<context>
    <name>CoreErrors</name>
    <message>
        <location filename="../../explorer/texts/errors.py" line="+23"/>
        <source>{value} is not an integer</source>
        <translation>{value} — не целое число</translation>
    </message>
    <message>
        <location line="+6"/>
        <source>{value} is not a dimension; write N or [x, y, z]</source>
        <translation>{value} — не размерность; напишите N или [x, y, z]</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>{value} is not a size; write N or x, y, z (e.g. 16, 16)</source>
        <translation>{value} — не размер; напишите N или x, y, z (например, 16, 16)</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>{value} is not a number between 0 and 1</source>
        <translation>{value} — не число от 0 до 1</translation>
    </message>
    <message>
        <location line="+9"/>
        <source>{value} is not a number</source>
        <translation>{value} — не число</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>{value} is not a percentage (a number from 0 to 100)</source>
        <translation>{value} — не процент (нужно число от 0 до 100)</translation>
    </message>
    <message>
        <location line="+17"/>
        <source>{value} is not a size like {example} ({count} numbers)</source>
        <translation>{value} — не размер вида {example} (нужно чисел: {count})</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>{value} is not a size like {example}</source>
        <translation>{value} — не размер вида {example}</translation>
    </message>
    <message>
        <location line="-42"/>
        <source>&apos;{value}&apos; is not an integer</source>
        <translation>«{value}» — не целое число</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>{value} is below the minimum of {limit}</source>
        <translation>{value} меньше минимума {limit}</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>{value} is above the maximum of {limit} (limiter: warps; a block holds at most {max} threads)</source>
        <translation>{value} больше максимума {limit} (ограничитель: варпы; в блоке не больше {max} потоков)</translation>
    </message>
    <message>
        <location line="-1"/>
        <source>{value} is above the maximum of {limit}</source>
        <translation>{value} больше максимума {limit}</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>&apos;{value}&apos; is not a dimension; write N or [x, y, z]</source>
        <translation>«{value}» — не размерность; напишите N или [x, y, z]</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>&apos;{value}&apos; is not a size; write N or x, y, z (e.g. 16, 16)</source>
        <translation>«{value}» — не размер; напишите N или x, y, z (например, 16, 16)</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>&apos;{value}&apos; is not a number between 0 and 1</source>
        <translation>«{value}» — не число от 0 до 1</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>{value} is outside the range 0 to 1</source>
        <translation>{value} вне диапазона от 0 до 1</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>{value} is below the minimum of {limit} us</source>
        <translation>{value} меньше минимума {limit} мкс</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>{value} is above the maximum of {limit} us</source>
        <translation>{value} больше максимума {limit} мкс</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>{value} is below the minimum of {limit} ms</source>
        <translation>{value} меньше минимума {limit} мс</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>{value} is above the maximum of {limit} ms</source>
        <translation>{value} больше максимума {limit} мс</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>&apos;{value}&apos; is not a number</source>
        <translation>«{value}» — не число</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>&apos;{value}&apos; is not a percentage (a number from 0 to 100)</source>
        <translation>&apos;{value}&apos; — не процент (нужно число от 0 до 100)</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>{threads} threads per block is above the limit of {limit} (limiter: warps)</source>
        <translation>{threads} потоков в блоке — больше предела {limit} (ограничитель: варпы)</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>{value} is above the limit of {limit} (limiter: registers)</source>
        <translation>{value} больше предела {limit} (ограничитель: регистры)</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>{regs} registers x {threads} threads needs {need} registers per block, above the limit of {limit} (limiter: registers)</source>
        <translation>{regs} регистров × {threads} потоков = {need} регистров на блок, больше предела {limit} (ограничитель: регистры)</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>the block needs {need} bytes of shared memory (static + dynamic + {reserved} reserved), above the limit of {limit} (limiter: shared_memory)</source>
        <translation>блоку нужно {need} байт разделяемой памяти (статическая + динамическая + {reserved} резерв), больше предела {limit} (ограничитель: разделяемая память)</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>{value} barriers per block leave no block slot (limiter: barriers)</source>
        <translation>{value} барьеров на блок не оставляют места ни одному блоку (ограничитель: барьеры)</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>&apos;{value}&apos; is not a size like {example} ({count} numbers)</source>
        <translation>«{value}» — не размер вида {example} (нужно чисел: {count})</translation>
    </message>
    <message>
        <location line="+5"/>
        <source>{name} = {size} is not a multiple of {unit}, the {shape} {dtype} MMA shape</source>
        <translation>{name} = {size} не кратно {unit} — форме MMA {shape} для {dtype}</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>{tile} with {stages} stage(s) needs {need} B of shared memory per block ({formula}), above the limit of {limit} B on {gpu}</source>
        <translation>плитке {tile} со стадиями конвейера ({stages}) нужно {need} Б разделяемой памяти на блок ({formula}), больше предела {limit} Б на {gpu}</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>a {warp_tile} warp tile needs about {regs} registers per thread ({acc} accumulators + {frag} fragment + {other} other), above the limit of {limit}; use more warps or a smaller tile</source>
        <translation>плитке варпа {warp_tile} нужно около {regs} регистров на поток ({acc} аккумуляторов + {frag} фрагментов + {other} прочих), больше предела {limit}; возьмите больше варпов или плитку меньше</translation>
    </message>
    <message>
        <location line="+4"/>
        <source>{warps} warps x 32 threads x {regs} registers need {need} registers per CTA, above the limit of {limit}; use fewer warps or a smaller tile</source>
        <translation>{warps} варпов × 32 потока × {regs} регистров = {need} регистров на CTA, больше предела {limit}; возьмите меньше варпов или плитку меньше</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>{dtype} has no Tensor Core support on {gpu} (CC {cc}); choose one of {choices}</source>
        <translation>{dtype} не поддерживается тензорными ядрами {gpu} (CC {cc}); выберите одно из: {choices}</translation>
    </message>
    <message>
        <location line="+4"/>
        <source>{dtype} runs FFMA on the CUDA cores (path simt), not on Tensor Cores; choose {choices} for an MMA path</source>
        <translation>{dtype} выполняется как FFMA на ядрах CUDA (путь simt), не на тензорных ядрах; для пути с MMA выберите {choices}</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>simt is the FP32 (FFMA) path; {dtype} runs on Tensor Cores: choose mma.sync or wgmma</source>
        <translation>simt — путь для FP32 (FFMA); {dtype} выполняется на тензорных ядрах: выберите mma.sync или wgmma</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>simt is the FP32 (FFMA) path; {dtype} runs on Tensor Cores: choose mma.sync</source>
        <translation>simt — путь для FP32 (FFMA); {dtype} выполняется на тензорных ядрах: выберите mma.sync</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>wgmma needs compute capability {ccs} (Hopper, Blackwell B200); {gpu} is CC {cc}: choose mma.sync</source>
        <translation>wgmma нужна вычислительная возможность {ccs} (Hopper, Blackwell B200); у {gpu} CC {cc}: выберите mma.sync</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>{cluster} = {ctas} CTAs, above the portable cluster limit of {limit}</source>
        <translation>{cluster} = {ctas} CTA, больше переносимого предела кластера {limit}</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>{instr} kernels have one MMA warp and 4 epilogue warps; cooperative and pingpong are Hopper (CC 9.0) schedules</source>
        <translation>у ядер {instr} один варп MMA и 4 варпа эпилога; cooperative и pingpong — расписания Hopper (CC 9.0)</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>{instr} reads A from shared or Tensor Memory, not from registers</source>
        <translation>{instr} читает A из разделяемой или тензорной памяти, не из регистров</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>BM = {bm} is not a multiple of {unit}: the cooperative schedule splits it between {consumers} consumer warpgroups of {rows}-row wgmmas</source>
        <translation>BM = {bm} не кратно {unit}: кооперативное расписание делит его между {consumers} варп-группами-потребителями с wgmma по {rows} строк</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>{tile} needs {stage} B per stage; fewer than the 2 stages a TMA pipeline needs fit the {limit} B of shared memory per block on {gpu} (with {epilogue} B for the epilogue)</source>
        <translation>плитке {tile} нужно {stage} Б на стадию; в {limit} Б разделяемой памяти на блок на {gpu} (с {epilogue} Б для эпилога) помещается меньше 2 стадий, нужных конвейеру TMA</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>{stages} stages of {tile} need {need} B of shared memory per block ({n} x ({a} + {b} + barriers) + {epilogue} B epilogue), above the limit of {limit} B on {gpu}</source>
        <translation>{stages} стадиям плитки {tile} нужно {need} Б разделяемой памяти на блок ({n} × ({a} + {b} + барьеры) + {epilogue} Б эпилога), больше предела {limit} Б на {gpu}</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>a {tile} consumer tile needs about {regs} registers per consumer thread ({acc} accumulators + {frag} A fragment + {other} other), above the setmaxnreg budget of {limit}; use a smaller tile or the cooperative schedule</source>
        <translation>плитке потребителя {tile} нужно около {regs} регистров на поток-потребитель ({acc} аккумуляторов + {frag} фрагмента A + {other} прочих), больше бюджета setmaxnreg {limit}; возьмите плитку меньше или кооперативное расписание</translation>
    </message>
    <message>
        <location line="+5"/>
        <source>a {tile} consumer tile needs about {regs} registers per consumer thread ({acc} accumulators + {frag} A fragment + {other} other), above the setmaxnreg budget of {limit}; use a smaller tile</source>
        <translation>плитке потребителя {tile} нужно около {regs} регистров на поток-потребитель ({acc} аккумуляторов + {frag} фрагмента A + {other} прочих), больше бюджета setmaxnreg {limit}; возьмите плитку меньше</translation>
    </message>
    <message>
        <location line="+4"/>
        <source>{tile} FP32 accumulators need {cols} Tensor-Memory columns, above the {limit} of an SM</source>
        <translation>аккумуляторам FP32 {tile} нужно {cols} столбцов тензорной памяти, больше {limit} на SM</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>{wt} does not divide the {tile} CTA tile</source>
        <translation>{wt} не делит плитку CTA {tile}</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>{wt} is not multiples of {unit} ({shape})</source>
        <translation>{wt} — не кратно {unit} ({shape})</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>{wt} is not a multiple of 32 outputs</source>
        <translation>{wt} — не кратно 32 выходам</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>{wt} warp tiles make {n} warps per {tile} tile, not the {asked} asked for</source>
        <translation>плитки варпа {wt} дают {n} варпов на плитку {tile}, а не запрошенные {asked}</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>{wt} makes {n} warps per CTA, above the limit of {limit} ({threads} threads)</source>
        <translation>{wt} даёт {n} варпов на CTA, больше предела {limit} ({threads} потоков)</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>{n} warps cannot split the {tile} tile into warp tiles that are multiples of {unit}; try a power of two up to {max}</source>
        <translation>{n} варпов не могут разделить плитку {tile} на плитки варпов, кратные {unit}; попробуйте степень двойки до {max}</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>{n} warps cannot split the {tile} tile into warp tiles; try a power of two up to {max}</source>
        <translation>{n} варпов не могут разделить плитку {tile} на плитки варпов; попробуйте степень двойки до {max}</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>Q, K and V blocks of {bq}, {bkv} and {bkv} rows x {d} x {b} B need {need} B of shared memory per block, above the limit of {limit} B on {gpu}</source>
        <translation>блокам Q, K и V по {bq}, {bkv} и {bkv} строк × {d} × {b} Б нужно {need} Б разделяемой памяти на блок, больше предела {limit} Б на {gpu}</translation>
    </message>
    <message>
        <location line="+4"/>
        <source>{value}: the parameter is {type}, an integer type; give an integer</source>
        <translation>{value}: параметр имеет тип {type}, целочисленный; введите целое число</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>{value} is outside {type}&apos;s range [{lo}, {hi}]</source>
        <translation>{value} вне диапазона типа {type} [{lo}, {hi}]</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>{value}: the parameter is {type}; give true or false</source>
        <translation>{value}: параметр имеет тип {type}; введите true или false</translation>
    </message>
</context>
<context>
    <name>CoreTexts</name>
    <message>
        <location filename="../../explorer/texts/names.py" line="+62"/>
        <source>loose round-robin: the next ready warp after the one that issued last</source>
        <translation>нестрогий круговой порядок (LRR): следующий готовый варп после того, что выдавал последним</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>greedy-then-oldest: keep issuing one warp until it stalls, then the oldest ready one</source>
        <translation>жадно, затем старейший (GTO): выдавать инструкции одного варпа, пока он не застрянет, затем самого старого из готовых</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>oldest first: always the ready warp that was launched earliest</source>
        <translation>старейший первым: всегда готовый варп, запущенный раньше всех</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>two-level: round-robin among a small active set; stalled warps swap out</source>
        <translation>двухуровневый: круговой порядок в небольшом активном наборе; застрявшие варпы из него вытесняются</translation>
    </message>
    <message>
        <location line="+5"/>
        <source>load one value, eight dependent FMAs on it, store it (the mission&apos;s example)</source>
        <translation>загрузить одно значение, восемь зависимых FMA над ним, сохранить (пример из исходного текста)</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>memory-bound streaming: c[i] = a[i] * s + b[i] with 16-byte vectors</source>
        <translation>потоковая обработка, ограниченная памятью: c[i] = a[i] * s + b[i] 16-байтовыми векторами</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>compute-bound: long FMA chains with 4-way instruction-level parallelism</source>
        <translation>ограничено вычислениями: длинные цепочки FMA с 4-кратным параллелизмом на уровне инструкций</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>latency-bound: a load, then a dependent FMA chain that needs its result</source>
        <translation>ограничено задержкой: загрузка, затем зависимая цепочка FMA, которой нужен её результат</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>uncoalesced: threads 32 elements apart, every thread its own 32-byte sector</source>
        <translation>без объединения обращений: потоки через 32 элемента, у каждого потока свой 32-байтовый сектор</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>shared-memory tiling: stage a tile, barrier, compute from shared memory, barrier</source>
        <translation>плитки в разделяемой памяти: загрузить плитку, барьер, вычисления из разделяемой памяти, барьер</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>GEMM-like main loop: global-&gt;shared stage, barrier, fragments from shared, MMAs</source>
        <translation>главный цикл как в GEMM: загрузка global-&gt;shared, барьер, фрагменты из shared, MMA</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>special functions: each value goes through exp and rsqrt</source>
        <translation>специальные функции: каждое значение проходит через exp и rsqrt</translation>
    </message>
    <message>
        <location line="+6"/>
        <source>each SM sub-partition&apos;s register file</source>
        <translation>регистровый файл каждого подраздела SM</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>on the SM, in the L1/shared SRAM</source>
        <translation>на SM, в SRAM L1/shared</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>on the SM, the same SRAM as shared memory</source>
        <translation>на SM, в той же SRAM, что и разделяемая память</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>on the die, shared by all SMs</source>
        <translation>на кристалле, общий для всех SM</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>off the die (stacks or chips beside it)</source>
        <translation>вне кристалла (стеки или микросхемы рядом с ним)</translation>
    </message>
    <message>
        <location line="-6"/>
        <source>compiler</source>
        <translation>компилятор</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>program (__shared__)</source>
        <translation>программа (__shared__)</translation>
    </message>
    <message>
        <location line="+2"/>
        <location line="+1"/>
        <source>hardware</source>
        <translation>аппаратура</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>program (cudaMalloc), cached by L2</source>
        <translation>программа (cudaMalloc), кэшируется в L2</translation>
    </message>
</context>
<context>
    <name>CountsPlot</name>
    <message>
        <location filename="../../explorer/gui/explore/counts_plot.py" line="+138"/>
        <source>unfinished</source>
        <translation>осталось</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>resident</source>
        <translation>размещено</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>ready (eligible)</source>
        <translation>готово (eligible)</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>issued</source>
        <translation>выдано</translation>
    </message>
    <message>
        <location line="+13"/>
        <source>mean ready, issued</source>
        <translation>готово, выдано (среднее)</translation>
    </message>
    <message>
        <location line="+0"/>
        <location line="+2"/>
        <source>ready, issued</source>
        <translation>готово, выдано</translation>
    </message>
    <message>
        <location line="-1"/>
        <source>warps</source>
        <translation>варпы</translation>
    </message>
    <message>
        <location line="+0"/>
        <source>unfinished, resident</source>
        <translation>осталось, размещено</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>ready</source>
        <translation>готово</translation>
    </message>
    <message>
        <location line="+56"/>
        <source>{title} · ready peaks at {peak}, above the scale</source>
        <translation>{title} · пик готовых — {peak}, выше шкалы</translation>
    </message>
    <message>
        <location line="+8"/>
        <source>Each step of the ready and issued curves is their average over {n} cycles; this long run keeps its GPU-wide counts per {bin} cycles.</source>
        <translation>Каждая ступенька кривых «готово» и «выдано» — их среднее за {n} тактов; этот длинный прогон хранит счётчики всего GPU по {bin} тактов.</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>Zoomed out, each step of the ready and issued curves is their average over {n} cycles; zoom in (mouse wheel) for single cycles.</source>
        <translation>При отдалении каждая ступенька кривых «готово» и «выдано» — их среднее за {n} тактов; приблизьте (колесо мыши), чтобы увидеть отдельные такты.</translation>
    </message>
    <message>
        <location line="+36"/>
        <source>Warps per cycle ({sms} SMs)</source>
        <translation>Варпы по тактам ({sms} SM)</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Warps per cycle, whole GPU ({sms} SMs)</source>
        <translation>Варпы по тактам, весь GPU ({sms} SM)</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Warps per cycle, whole GPU</source>
        <translation>Варпы по тактам, весь GPU</translation>
    </message>
    <message>
        <location line="+6"/>
        <source>Warps per cycle on SM {sm}</source>
        <translation>Варпы по тактам на SM {sm}</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>SM {sm}</source>
        <translation>SM {sm}</translation>
    </message>
    <message>
        <location line="+39"/>
        <source>cycle</source>
        <translation>такт</translation>
    </message>
</context>
<context>
    <name>CudaSourceRow</name>
    <message>
        <location filename="../../explorer/gui/measure/cu_source.py" line="+73"/>
        <source>Open .cu…</source>
        <translation>Открыть .cu…</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>Compile a CUDA source file (no GPU needed) and fill in the registers, static shared memory and barriers its kernel uses.</source>
        <translation>Скомпилировать исходный файл CUDA (GPU не нужен) и подставить регистры, статическую разделяемую память и барьеры, которые использует его ядро.</translation>
    </message>
    <message>
        <location line="+4"/>
        <source>The kernel whose resources fill the fields.</source>
        <translation>Ядро, ресурсы которого подставляются в поля.</translation>
    </message>
    <message>
        <location line="+4"/>
        <source>or type the numbers below</source>
        <translation>или введите числа ниже</translation>
    </message>
    <message>
        <location line="+25"/>
        <source>Open a CUDA source</source>
        <translation>Открыть исходный файл CUDA</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>CUDA sources (*.cu *.cuh);;All files (*)</source>
        <translation>Исходные файлы CUDA (*.cu *.cuh);;Все файлы (*)</translation>
    </message>
    <message>
        <location line="+14"/>
        <source>{name} is not a UTF-8 text file</source>
        <translation>{name} — не текстовый файл в UTF-8</translation>
    </message>
    <message>
        <location line="-2"/>
        <source>cannot read {name}: {why}</source>
        <translation>не удаётся прочитать {name}: {why}</translation>
    </message>
    <message>
        <location line="+5"/>
        <source>{name} has no __global__ kernel</source>
        <translation>в {name} нет ядра __global__</translation>
    </message>
    <message>
        <location line="+22"/>
        <source>Compiling {kernel} in {name} for {arch}…</source>
        <translation>Компиляция {kernel} из {name} для {arch}…</translation>
    </message>
    <message>
        <location line="+32"/>
        <source>{n} registers</source>
        <translation>регистров: {n}</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>{b} B static shared memory</source>
        <translation>статической разделяемой памяти: {b} Б</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>{n} barriers</source>
        <translation>барьеров: {n}</translation>
    </message>
    <message>
        <location line="+5"/>
        <source>spills unknown (no ptxas log)</source>
        <translation>вытеснения неизвестны (нет журнала ptxas)</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>SPILLS {s} B per thread to local memory (loads {l} B)</source>
        <translation>ВЫТЕСНЯЕТ {s} Б на поток в локальную память (загружает {l} Б)</translation>
    </message>
    <message>
        <location line="+4"/>
        <source>no spills</source>
        <translation>без вытеснений</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>{kernel} in {file} for {arch} ({compiler}): {parts}.</source>
        <translation>{kernel} из {file} для {arch} ({compiler}): {parts}.</translation>
    </message>
    <message>
        <location line="+5"/>
        <source>Its __launch_bounds__ allow at most {m} threads per block.</source>
        <translation>Его __launch_bounds__ допускают не больше {m} потоков на блок.</translation>
    </message>
    <message>
        <location line="+21"/>
        <source>The fields no longer hold {kernel}&apos;s numbers; choose the kernel again to use them.</source>
        <translation>В полях уже не числа ядра {kernel}; выберите ядро снова, чтобы их подставить.</translation>
    </message>
    <message>
        <location line="+7"/>
        <source>no CUDA compiler: {m}</source>
        <translation>нет компилятора CUDA: {m}</translation>
    </message>
</context>
<context>
    <name>CurveLegend</name>
    <message>
        <location filename="../../explorer/gui/explore/counts_plot.py" line="+16"/>
        <source>Launched warps not finished yet: resident plus still waiting for a place; it starts at every launched warp.</source>
        <translation>Запущенные варпы, ещё не завершённые: размещённые и ещё ждущие места; кривая начинается со всех запущенных варпов.</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Warps placed on an SM (holding a slot, registers, shared memory).</source>
        <translation>Варпы, размещённые на SM (занимают слот, регистры, разделяемую память).</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Resident warps whose next instruction could issue this cycle.</source>
        <translation>Размещённые варпы, чья следующая инструкция может быть выдана в этом такте.</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Warp-instructions issued this cycle (at most one per scheduler).</source>
        <translation>Инструкции варпов, выданные в этом такте (не больше одной на планировщик).</translation>
    </message>
</context>
<context>
    <name>ExplorerPage</name>
    <message>
        <location filename="../../explorer/gui/explore/layout.py" line="+91"/>
        <source>Counts of the selected SM only</source>
        <translation>Только выбранный SM</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>Show resident, eligible and issued warps of the selected SM instead of the whole GPU.</source>
        <translation>Показать размещённые, готовые и выданные варпы выбранного SM вместо всего GPU.</translation>
    </message>
    <message>
        <location filename="../../explorer/gui/explore/transport.py" line="+36"/>
        <source>Play / pause</source>
        <translation>Пуск / пауза</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Back one cycle</source>
        <translation>Назад на один такт</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Forward one cycle</source>
        <translation>Вперёд на один такт</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Back 100 cycles</source>
        <translation>Назад на 100 тактов</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Forward 100 cycles</source>
        <translation>Вперёд на 100 тактов</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>First cycle</source>
        <translation>Первый такт</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Last cycle</source>
        <translation>Последний такт</translation>
    </message>
    <message>
        <location filename="../../explorer/gui/explore/page.py" line="+236"/>
        <source>The simulation refused this scenario: {msg}. Showing the last good run.</source>
        <translation>Симуляция отклонила этот сценарий: {msg}. Показан последний удачный прогон.</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>The simulation failed (a bug): {msg}</source>
        <translation>Симуляция завершилась с ошибкой (это баг): {msg}</translation>
    </message>
    <message>
        <location line="+8"/>
        <source>The SMs this run did not keep could not be filled in: {msg}</source>
        <translation>Не удалось дополнить SM, которые этот запуск не сохранил: {msg}</translation>
    </message>
    <message>
        <location filename="../../explorer/gui/explore/run_state.py" line="+101"/>
        <source>SMs {first}–{last}</source>
        <translation>SM {first}–{last}</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>{n} SMs</source>
        <translation>SM: {n}</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>{which}: this long run did not keep their states; filling them in… {pct:.0f}%</source>
        <translation>{which}: этот долгий запуск не сохранил их состояния; дополняем… {pct:.0f}%</translation>
    </message>
    <message>
        <location filename="../../explorer/gui/explore/page.py" line="+13"/>
        <source>&lt;b&gt;SM grid&lt;/b&gt; — {gpu}: {sms} SMs × {w} warp slots · row = scheduler · outline = block · bar = resident warps</source>
        <translation>&lt;b&gt;Сетка SM&lt;/b&gt; — {gpu}, {sms} SM; слотов на SM: {w} · строка = планировщик · рамка = блок · полоса = размещено</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>&lt;b&gt;SM grid&lt;/b&gt; — {gpu}: {sms} SMs × {w} warp slots</source>
        <translation>&lt;b&gt;Сетка SM&lt;/b&gt; — {gpu}, {sms} SM; слотов на SM: {w}</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>&lt;b&gt;SM grid&lt;/b&gt; — {gpu}</source>
        <translation>&lt;b&gt;Сетка SM&lt;/b&gt; — {gpu}</translation>
    </message>
    <message>
        <location filename="../../explorer/gui/explore/run_state.py" line="-52"/>
        <source>Invalid input ({n}): showing the last good simulation</source>
        <translation>Неверный ввод ({n}): показана последняя удачная симуляция</translation>
    </message>
    <message>
        <location line="+4"/>
        <source>Compiling… {pct}</source>
        <translation>Компиляция… {pct}</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>Simulating… {pct:.0f}%</source>
        <translation>Симуляция… {pct:.0f}%</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>(showing the previous run)</source>
        <translation>(показан предыдущий прогон)</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>Simulation refused: showing the last good run</source>
        <translation>Симуляция отклонена: показан последний удачный прогон</translation>
    </message>
    <message>
        <location line="+7"/>
        <source>Filling in SMs… {pct:.0f}%</source>
        <translation>Дополняем SM… {pct:.0f}%</translation>
    </message>
    <message>
        <location line="+7"/>
        <source>Simulating…</source>
        <translation>Симуляция…</translation>
    </message>
    <message>
        <location line="+5"/>
        <source>Simulating… {pct:.0f}%
This is the previous run until the new one is done.</source>
        <translation>Симуляция… {pct:.0f}%
Пока показан предыдущий запуск.</translation>
    </message>
    <message>
        <location line="+28"/>
        <source>Simulating {name}…</source>
        <translation>Симуляция {name}…</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>the scenario</source>
        <translation>сценария</translation>
    </message>
    <message>
        <location filename="../../explorer/gui/explore/metrics.py" line="+77"/>
        <source>the kernel&apos;s SASS ({arch})</source>
        <translation>SASS ядра ({arch})</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>the workload model</source>
        <translation>модель нагрузки</translation>
    </message>
    <message>
        <location filename="../../explorer/gui/explore/run_state.py" line="+5"/>
        <source>{gpu}: {warps} warps launched · theoretical occupancy {theo} · achieved {ach} · issue slots used {iss} · {cycles} cycles · {program}</source>
        <translation>{gpu}: запущено варпов {warps} · теор. заполняемость {theo} · достигнутая {ach} · занято слотов выдачи {iss} · тактов {cycles} · {program}</translation>
    </message>
</context>
<context>
    <name>ExportFeature</name>
    <message>
        <location filename="../../explorer/gui/files/export_menu.py" line="-441"/>
        <source>&amp;Export</source>
        <translation>&amp;Экспорт</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>&amp;Picture of a View…</source>
        <translation>&amp;Изображение вида…</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>PNG (1×, 2×, 3×), SVG or PDF of the current view, a panel or the whole window.</source>
        <translation>PNG (1×, 2×, 3×), SVG или PDF текущего вида, панели или всего окна.</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>&amp;Animation of Cycles…</source>
        <translation>&amp;Анимация тактов…</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>A range of the Explorer&apos;s cycles as an animated GIF or an MP4.</source>
        <translation>Диапазон тактов обозревателя в виде анимированного GIF или MP4.</translation>
    </message>
    <message>
        <location line="+11"/>
        <source>The current view (tab)</source>
        <translation>Текущий вид (вкладка)</translation>
    </message>
    <message>
        <location line="+0"/>
        <source>The whole window</source>
        <translation>Всё окно</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>SM grid</source>
        <translation>Сетка SM</translation>
    </message>
    <message>
        <location line="+0"/>
        <source>Timeline</source>
        <translation>Временная диаграмма</translation>
    </message>
    <message>
        <location line="+0"/>
        <source>Counts plot</source>
        <translation>График числа варпов</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Metrics</source>
        <translation>Метрики</translation>
    </message>
    <message>
        <location line="+0"/>
        <source>State legend</source>
        <translation>Легенда состояний</translation>
    </message>
    <message>
        <location line="+0"/>
        <source>DRAM bandwidth</source>
        <translation>Полоса пропускания DRAM</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Scenario panel</source>
        <translation>Панель сценария</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Occupancy calculator</source>
        <translation>Калькулятор заполняемости</translation>
    </message>
    <message>
        <location line="+0"/>
        <source>Occupancy graphs</source>
        <translation>Графики заполняемости</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>GEMM view</source>
        <translation>Вид GEMM</translation>
    </message>
    <message>
        <location line="+0"/>
        <source>Roofline</source>
        <translation>Модель «крыши» (roofline)</translation>
    </message>
    <message>
        <location line="+0"/>
        <source>Memory hierarchy</source>
        <translation>Иерархия памяти</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Speed of Light (what limits useful work)</source>
        <translation>Скорость света, Speed of Light (что ограничивает полезную работу)</translation>
    </message>
    <message>
        <location line="+0"/>
        <source>Unit-use strip</source>
        <translation>Полоса загрузки узлов</translation>
    </message>
    <message>
        <location line="+23"/>
        <source>there is no {subject} panel in this window</source>
        <translation>в этом окне нет панели {subject}</translation>
    </message>
    <message>
        <location line="+19"/>
        <source>Wrote {path}</source>
        <translation>Записан {path}</translation>
    </message>
    <message>
        <location line="+7"/>
        <source>there is no simulation on screen yet</source>
        <translation>на экране ещё нет симуляции</translation>
    </message>
    <message>
        <location line="+5"/>
        <source>animations show the Explorer: choose the window, the Explorer or one of its panels</source>
        <translation>анимация показывает обозреватель: выберите окно, обозреватель или одну из его панелей</translation>
    </message>
    <message>
        <location line="+30"/>
        <source>Export failed</source>
        <translation>Экспорт не удался</translation>
    </message>
    <message>
        <location line="+20"/>
        <source>There is no simulation to animate yet; wait until the Explorer shows one.</source>
        <translation>Анимировать пока нечего: дождитесь, пока обозреватель покажет симуляцию.</translation>
    </message>
    <message>
        <location line="+22"/>
        <source>Drawing {n} frames…</source>
        <translation>Рисуются кадры ({n})…</translation>
    </message>
    <message>
        <location line="+0"/>
        <source>Cancel</source>
        <translation>Отмена</translation>
    </message>
    <message>
        <location line="-33"/>
        <source>Cannot write {path}: {err}</source>
        <translation>Не удаётся записать {path}: {err}</translation>
    </message>
    <message>
        <location line="+57"/>
        <source>Export cancelled; {path} was not written.</source>
        <translation>Экспорт отменён; {path} не записан.</translation>
    </message>
    <message>
        <location line="-5"/>
        <source>Wrote {path} ({n} frames)</source>
        <translation>Записан {path} (кадров: {n})</translation>
    </message>
</context>
<context>
    <name>GemmFeature</name>
    <message>
        <location filename="../../explorer/gui/gemm/feature.py" line="+23"/>
        <source>&amp;GEMM</source>
        <translation>&amp;GEMM</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>&amp;Memory</source>
        <translation>Па&amp;мять</translation>
    </message>
</context>
<context>
    <name>GemmInputs</name>
    <message>
        <location filename="../../explorer/gui/gemm/page.py" line="+146"/>
        <source>GEMM  C = A × B</source>
        <translation>GEMM  C = A × B</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>{full}: {sms} SMs</source>
        <translation>{full}: {sms} SM</translation>
    </message>
    <message>
        <location line="+19"/>
        <location line="+2"/>
        <source>auto</source>
        <translation>авто</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>shared memory (SS)</source>
        <translation>разделяемая память (SS)</translation>
    </message>
    <message>
        <location line="+0"/>
        <source>registers (RS)</source>
        <translation>регистры (RS)</translation>
    </message>
    <message>
        <location line="+13"/>
        <source>Rows of A and of the output C.</source>
        <translation>Строк A и результата C.</translation>
    </message>
    <message>
        <location line="+0"/>
        <source>M (&amp;rows of C):</source>
        <translation>&amp;M (строк C):</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>&amp;N (columns of C):</source>
        <translation>&amp;N (столбцов C):</translation>
    </message>
    <message>
        <location line="+0"/>
        <source>Columns of B and of the output C.</source>
        <translation>Столбцов B и результата C.</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>&amp;K (inner size):</source>
        <translation>&amp;K (внутренний размер):</translation>
    </message>
    <message>
        <location line="+0"/>
        <source>Columns of A = rows of B: the length of every dot product.</source>
        <translation>Столбцов A = строк B: длина каждого скалярного произведения.</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Main-loop &amp;path:</source>
        <translation>Путь &amp;цикла:</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>The instruction that does the math: wgmma (Hopper&apos;s warpgroup MMA fed by TMA from shared memory, CC 9.0 and 10.0), mma.sync (warp-level MMA with both operands in registers, Volta to Ada) or SIMT (FFMA on the CUDA cores, FP32). Auto: the GPU&apos;s best path for the data type.</source>
        <translation>Инструкция, которая считает: wgmma (MMA варп-группы Hopper, данные подаёт TMA из разделяемой памяти; CC 9.0 и 10.0), mma.sync (MMA на уровне варпа, оба операнда в регистрах; от Volta до Ada) или SIMT (FFMA на ядрах CUDA, FP32). Авто — лучший путь GPU для этого типа данных.</translation>
    </message>
    <message>
        <location line="+4"/>
        <source>CTA &amp;tile BM×BN×BK:</source>
        <translation>Пл&amp;итка CTA BM×BN×BK:</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>The C tile one CTA computes (BM × BN), and the K slice it loads per step (BK), e.g. 128x256x64. Empty: the data type&apos;s default.</source>
        <translation>Плитка C, которую вычисляет один CTA (BM × BN), и срез по K, загружаемый за шаг (BK), например 128x256x64. Пусто — значение по умолчанию для типа данных.</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>&amp;Warps per CTA:</source>
        <translation>Ва&amp;рпов на CTA:</translation>
    </message>
    <message>
        <location line="+0"/>
        <source>Optional. Empty: chosen to fit the tile.</source>
        <translation>Необязательно. Пусто — подбирается под плитку.</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Wa&amp;rp tile WM×WN:</source>
        <translation>Плитка в&amp;арпа WM×WN:</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Optional: the part of the CTA tile one warp computes, e.g. 64x64. Empty: chosen from the warps.</source>
        <translation>Необязательно: часть плитки CTA, которую считает один варп, например 64x64. Пусто — выбирается по числу варпов.</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>S&amp;chedule:</source>
        <translation>Расписани&amp;е:</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>How the two consumer warpgroups share the work: cooperative (both on one tile, split by rows) or ping-pong (one tile each; one&apos;s epilogue overlaps the other&apos;s main loop). Hopper only.</source>
        <translation>Как две варп-группы-потребителя делят работу: кооперативно (обе над одной плиткой, поделив строки) или пинг-понг (по плитке каждой; эпилог одной совмещается с основным циклом другой). Только Hopper.</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>Clu&amp;ster M×N:</source>
        <translation>К&amp;ластер M×N:</translation>
    </message>
    <message>
        <location line="+7"/>
        <source>P&amp;ipeline stages:</source>
        <translation>Ста&amp;дий конвейера:</translation>
    </message>
    <message>
        <location line="-6"/>
        <source>Optional: CTAs per thread-block cluster along M and N, e.g. 2x1: the CTAs of a cluster share one TMA load of the operand they have in common (multicast). Empty: 2x1.</source>
        <translation>Необязательно: CTA в кластере блоков вдоль M и N, например 2x1: CTA одного кластера делят одну загрузку TMA общего операнда (multicast). Пусто — 2x1.</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>&amp;A operand from:</source>
        <translation>Опе&amp;ранд A из:</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Where wgmma reads A: shared memory through a descriptor (SS, as B always is) or registers (RS: loaded with ldmatrix first).</source>
        <translation>Откуда wgmma читает A: из разделяемой памяти через дескриптор (SS, как всегда B) или из регистров (RS: сначала загружается через ldmatrix).</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>Optional: tiles in flight in shared memory (double buffering = 2). Empty: the data type&apos;s default, fewer if shared memory is short; on the wgmma path as many as fit.</source>
        <translation>Необязательно: сколько плиток одновременно в разделяемой памяти (двойная буферизация = 2). Пусто — значение по умолчанию для типа данных, меньше, если разделяемой памяти не хватает; на пути wgmma — сколько поместится.</translation>
    </message>
    <message>
        <location line="+6"/>
        <source>GP&amp;U:</source>
        <translation>GP&amp;U:</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Data t&amp;ype:</source>
        <translation>&amp;Тип данных:</translation>
    </message>
    <message>
        <location line="+55"/>
        <source>enter a whole number</source>
        <translation>введите целое число</translation>
    </message>
    <message>
        <location line="+13"/>
        <location line="+2"/>
        <location line="+2"/>
        <source>auto: {v}</source>
        <translation>авто: {v}</translation>
    </message>
</context>
<context>
    <name>GemmModelTexts</name>
    <message>
        <location filename="../../explorer/gui/gemm/model_texts.py" line="+24"/>
        <source>wgmma + TMA</source>
        <translation>wgmma + TMA</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>SIMT (FFMA)</source>
        <translation>SIMT (FFMA)</translation>
    </message>
    <message>
        <location line="+6"/>
        <source>cooperative</source>
        <translation>кооперативное</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>ping-pong</source>
        <translation>пинг-понг</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>warp-specialized</source>
        <translation>со специализацией варпов</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>multistage</source>
        <translation>многостадийное</translation>
    </message>
    <message>
        <location filename="../../explorer/texts/gemm.py" line="-115"/>
        <source>Tensor Core math</source>
        <translation>вычисления на тензорных ядрах</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>FP32 math (CUDA cores)</source>
        <translation>вычисления FP32 (ядра CUDA)</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>instruction issue</source>
        <translation>выдача инструкций</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>shared-memory bandwidth</source>
        <translation>пропускная способность разделяемой памяти</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>HBM bandwidth</source>
        <translation>пропускная способность HBM</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>L2 bandwidth</source>
        <translation>пропускная способность L2</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>latency (waiting on memory, not enough in flight)</source>
        <translation>задержка (ожидание памяти, в полёте мало запросов)</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>pipeline fill and epilogue (not hidden by the main loop)</source>
        <translation>заполнение конвейера и эпилог (не скрыты основным циклом)</translation>
    </message>
    <message>
        <location line="+10"/>
        <source>the MMAs of the {n} tile(s) on the busiest SM take longer than moving their data</source>
        <translation>MMA плиток самого загруженного SM (их {n}) длятся дольше, чем перемещение их данных</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>the FFMAs of the {n} tile(s) on the busiest SM take longer than moving their data</source>
        <translation>FFMA плиток самого загруженного SM (их {n}) длятся дольше, чем перемещение их данных</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>the warps issue more instructions than the schedulers can issue per clock</source>
        <translation>варпы выдают больше инструкций, чем планировщики успевают выдать за такт</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>every operand passes through shared memory at {bpc} B/clk per SM; the wgmma path reads them once from shared memory without register staging</source>
        <translation>каждый операнд проходит через разделяемую память со скоростью {bpc} Б/такт на SM; путь wgmma читает их из разделяемой памяти один раз, без промежуточных регистров</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>every operand passes through shared memory at {bpc} B/clk per SM</source>
        <translation>каждый операнд проходит через разделяемую память со скоростью {bpc} Б/такт на SM</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>the bytes that must come from device memory take longer than the math</source>
        <translation>байты, которые должны прийти из памяти устройства, идут дольше, чем длятся вычисления</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>the tile loads from L2 take longer than the math (bigger tiles or cluster multicast cut them)</source>
        <translation>загрузки плиток из L2 длятся дольше вычислений (их сокращают плитки крупнее или рассылка в кластере)</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>too few loads in flight to cover the memory latency (more stages or more CTAs per SM would help)</source>
        <translation>в полёте слишком мало загрузок, чтобы покрыть задержку памяти (помогут больше стадий или больше CTA на SM)</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>the K loop is too short to hide the first stage&apos;s latency and the epilogue</source>
        <translation>цикл по K слишком короток, чтобы скрыть задержку первой стадии и эпилог</translation>
    </message>
    <message>
        <location line="-20"/>
        <source>{term}: {why}.</source>
        <translation>{term}: {why}.</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>{term} {pct}%</source>
        <translation>{term} — {pct}%</translation>
    </message>
    <message>
        <location line="-1"/>
        <source>{term}: {why}. Next: {rest} of it.</source>
        <translation>{term}: {why}. Следом: {rest} от него.</translation>
    </message>
    <message>
        <location line="-35"/>
        <source>HBM</source>
        <translation>HBM</translation>
    </message>
    <message>
        <location line="+0"/>
        <source>L2</source>
        <translation>L2</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>shared memory</source>
        <translation>разделяемая память</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>registers</source>
        <translation>регистры</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Tensor Cores</source>
        <translation>тензорные ядра</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Tensor Memory</source>
        <translation>тензорная память</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>FP32 pipes</source>
        <translation>конвейеры FP32</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>TMA</source>
        <translation>TMA</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>descriptors</source>
        <translation>дескрипторы</translation>
    </message>
    <message>
        <location line="+48"/>
        <source>the scenario runs the main loop only: the plan adds {us} µs of pipeline fill and epilogue that the simulation does not have</source>
        <translation>сценарий выполняет только основной цикл: план добавляет {us} мкс заполнения конвейера и эпилога, которых в симуляции нет</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>clocks: the simulator runs the {gpu} at its {boost} MHz boost clock with its own unit rates; the plan converts every per-clock figure at {eff} MHz ({peak} MHz peak clock x {frac} sustained): compare the simulated time with the model&apos;s main loop at the simulator&apos;s clock</source>
        <translation>частоты: симулятор гоняет {gpu} на его boost-частоте {boost} МГц со своими скоростями узлов; план пересчитывает все величины на такт при {eff} МГц (пиковая частота {peak} МГц × {frac} устойчиво): сравнивайте время симуляции с основным циклом модели на частоте симулятора</translation>
    </message>
    <message>
        <location line="+5"/>
        <source>the plan takes the largest main-loop term ({term}) as if everything else overlapped it; the simulator issues each warp&apos;s instructions in order and queues them at each unit, so latencies and near-limit units add up partly, and a unit whose peak the simulator does not cap cannot slow it</source>
        <translation>план берёт наибольшее слагаемое основного цикла ({term}), как будто всё остальное с ним совмещается; симулятор выдаёт инструкции каждого варпа по порядку и ставит их в очередь у каждого узла, так что задержки и узлы, близкие к пределу, частично складываются, а узел, пик которого симулятор не ограничивает, замедлить его не может</translation>
    </message>
    <message>
        <location line="+5"/>
        <source>{n} warp(s) per scheduler ({ctas} CTA(s) x {warps} warps per SM): while a warp waits for its copies, fragment loads or the barrier, little else can issue</source>
        <translation>варпов на планировщик: {n} (CTA: {ctas} × варпов: {warps} на SM): пока варп ждёт свои копии, загрузки фрагментов или барьер, выдавать почти нечего</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>the scenario runs one CTA per tile in waves (not a persistent CTA walking tiles): the tiles of the next round start when a CTA ends, with an empty pipeline; each CTA copies only its share of a multicast operand, and the simulator&apos;s L2 is one GPU-wide queue at its bandwidth</source>
        <translation>сценарий запускает по одному CTA на плитку волнами (а не постоянный CTA, обходящий плитки): плитки следующего круга начинаются, когда CTA завершается, с пустым конвейером; каждый CTA копирует только свою долю операнда, рассылаемого по кластеру (multicast), а L2 в симуляторе — одна общая для GPU очередь с его пропускной способностью</translation>
    </message>
    <message>
        <location line="+6"/>
        <source>the plan estimates that {pct}% of the copies hit in L2 (it assumes a share of L2 holds the operands); the simulation looks each copied tile up in its L2 by the tile&apos;s addresses, so its hit rate follows from which blocks run together</source>
        <translation>план оценивает, что {pct}% копий попадают в L2 (он считает, что операнды занимают долю L2); симуляция ищет каждую копируемую плитку в своём L2 по её адресам, поэтому её доля попаданий следует из того, какие блоки работают одновременно</translation>
    </message>
    <message>
        <location line="+5"/>
        <source>the simulator stages each copy through registers (ldg + sts; it has no cp.async) and charges the sts to shared memory, which the plan does not</source>
        <translation>симулятор проводит каждую копию через регистры (ldg + sts; cp.async в нём нет) и относит sts на счёт разделяемой памяти, чего план не делает</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>the scenario cannot double-buffer fragments (each MMA step waits for the fragment loads just before it), so every slice exposes the shared-memory latency; CUTLASS loads the next slice&apos;s fragments during this slice&apos;s MMAs, as the plan assumes</source>
        <translation>сценарий не умеет двойную буферизацию фрагментов (каждый шаг MMA ждёт загрузки фрагментов прямо перед ним), поэтому каждый срез открывает задержку разделяемой памяти; CUTLASS загружает фрагменты следующего среза во время MMA текущего, как и предполагает план</translation>
    </message>
    <message>
        <location line="+5"/>
        <source>the simulator&apos;s mma op is m16n8k16 (4096 FLOP); {dtype}&apos;s {shape} MMAs are simulated as that many m16n8k16 MMAs</source>
        <translation>операция mma симулятора — m16n8k16 (4096 FLOP); MMA {shape} для {dtype} симулируются как эквивалентное число MMA m16n8k16</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>{asked} warps do not suit the {tile} tile; using {n}</source>
        <translation>{asked} варпа не подходят плитке {tile}; берётся {n}</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>{asked} stages of a {tile} tile do not fit {gpu}&apos;s shared memory; using {n}</source>
        <translation>{asked} стадии плитки {tile} не помещаются в разделяемую память {gpu}; берётся {n}</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>BM = {bm} does not split between 2 consumer warpgroups; using the pingpong schedule</source>
        <translation>BM = {bm} не делится между 2 варп-группами-потребителями; берётся расписание пинг-понг</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>the {cluster} cluster pads the {grid} tile grid to {padded}: {n} padded tiles compute nothing</source>
        <translation>кластер {cluster} дополняет сетку плиток {grid} до {padded}: {n} добавленных плиток ничего не считают</translation>
    </message>
</context>
<context>
    <name>GemmPage</name>
    <message>
        <location filename="../../explorer/gui/gemm/page.py" line="+27"/>
        <source>The mapping</source>
        <translation>Отображение на GPU</translation>
    </message>
    <message>
        <location line="+6"/>
        <source>Grid:</source>
        <translation>Сетка:</translation>
    </message>
    <message>
        <location line="+0"/>
        <source>Per CTA:</source>
        <translation>На CTA:</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Resources:</source>
        <translation>Ресурсы:</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Occupancy:</source>
        <translation>Заполняемость:</translation>
    </message>
    <message>
        <location line="+0"/>
        <source>Waves:</source>
        <translation>Волны:</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Work:</source>
        <translation>Работа:</translation>
    </message>
    <message>
        <location line="+0"/>
        <source>Predicted:</source>
        <translation>Прогноз:</translation>
    </message>
    <message>
        <location line="+0"/>
        <source>Bound:</source>
        <translation>Ограничение:</translation>
    </message>
    <message>
        <location line="+16"/>
        <source>Run this GEMM&apos;s main loop (global loads, shared-memory stores, barrier, fragment loads, MMAs per K-step) in the simulator, one CTA per tile.</source>
        <translation>Запустить главный цикл этого GEMM (глобальные загрузки, сохранения в разделяемую память, барьер, загрузки фрагментов, MMA на каждом шаге по K) в симуляторе, один CTA на плитку.</translation>
    </message>
    <message>
        <location line="+56"/>
        <source>Roofline</source>
        <translation>Модель «крыши» (roofline)</translation>
    </message>
    <message>
        <location line="+17"/>
        <source>Time split</source>
        <translation>Доли времени</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Precision</source>
        <translation>Точность</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Where the predicted time goes: Tensor Cores beside everything else.</source>
        <translation>Куда уходит прогнозируемое время: тензорные ядра рядом со всем остальным.</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>What BF16, FP16 and FP8 inputs with FP32 accumulation do to a dot product&apos;s error as K grows.</source>
        <translation>Что входы BF16, FP16 и FP8 с накоплением в FP32 делают с ошибкой скалярного произведения при росте K.</translation>
    </message>
    <message>
        <location line="+39"/>
        <source>Invalid input ({n}): the views show the last valid GEMM.</source>
        <translation>Неверный ввод ({n}): виды показывают последний корректный GEMM.</translation>
    </message>
    <message>
        <location line="+5"/>
        <source>Invalid input ({n}): showing the last valid GEMM.</source>
        <translation>Неверный ввод ({n}): показан последний корректный GEMM.</translation>
    </message>
    <message>
        <location line="+47"/>
        <source>{tm} × {tn} = {tiles} tiles of {bm}×{bn}; {ctas} persistent CTAs (one per SM) walk them</source>
        <translation>{tm} × {tn} = {tiles} плиток {bm}×{bn}; их обходят {ctas} постоянных CTA (по одному на SM)</translation>
    </message>
    <message>
        <location line="+5"/>
        <source>{tm} × {tn} = {tiles} CTAs, one per {bm}×{bn} tile of C</source>
        <translation>{tm} × {tn} = {tiles} CTA, по одному на плитку C {bm}×{bn}</translation>
    </message>
    <message>
        <location line="+4"/>
        <source>{warps} warps: a producer warpgroup ({pw} issuing TMA copies, {idle} idle) + {cw} consumer ({g} warpgroups, {sched}) · {stages} stages · {k} K-steps of {bk}</source>
        <translation>варпов: {warps} — варп-группа производителя ({pw} выдаёт копии TMA, {idle} простаивают) + потребители {cw} ({g} варп-группы, {sched}) · стадий: {stages} · шагов по K: {k} по {bk}</translation>
    </message>
    <message>
        <location line="+11"/>
        <source>{warps} warps ({wm}×{wn} each) · {stages} stage(s) · {k} K-steps of {bk}</source>
        <translation>варпов: {warps} (по {wm}×{wn}) · стадий: {stages} · шагов по K: {k} по {bk}</translation>
    </message>
    <message>
        <location line="+10"/>
        <source>{regs} registers per thread · {smem} KiB shared memory per CTA</source>
        <translation>регистров на поток: {regs} · разделяемой памяти на CTA: {smem} КиБ</translation>
    </message>
    <message>
        <location line="+4"/>
        <source>{b} CTA(s) per SM: {aw} of {mw} warps ({occ}%), limited by {lim}</source>
        <translation>CTA на SM: {b}; варпов {aw} из {mw} ({occ}%), ограничение: {lim}</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>{waves} waves of work → {full} wave(s); wave efficiency {eff}%</source>
        <translation>работы на {waves} волны → волн: {full}; эффективность волн {eff}%</translation>
    </message>
    <message>
        <location line="+30"/>
        <source>{tiles} tiles are {waves} waves of work, so they need &lt;b&gt;{full} waves&lt;/b&gt;. The last wave computes only {last} tile(s) while {idle} slots wait, yet it takes as long as a full wave: the GPU pays for {full} waves and {eff} of the slot-time does useful work.</source>
        <translation>Плиток — {tiles}, это {waves} волны работы, поэтому нужно &lt;b&gt;{full} волн(ы)&lt;/b&gt;. В последней волне плиток всего {last}, а слотов в простое — {idle}, но длится она столько же, сколько полная: GPU платит за {full} волн(ы), и полезной работой занято лишь {eff} времени слотов.</translation>
    </message>
    <message>
        <location line="+9"/>
        <source>{tiles} tiles on {sms} SMs x {b} CTA(s) = {slots} slots per wave: {waves} waves of work take {full} wave(s); the last wave runs {last} of {slots} slots, so {eff}% of the slot-time is used</source>
        <translation>Плиток {tiles} на {sms} SM x {b} CTA (слотов на волну: {slots}): {waves} волны работы занимают {full} волн(ы); последняя волна занимает {last} из {slots} слотов, поэтому используется {eff}% времени слотов</translation>
    </message>
    <message>
        <location line="+18"/>
        <source>{name}: {tf}</source>
        <translation>{name}: {tf}</translation>
    </message>
    <message>
        <location line="+4"/>
        <source>the roof that binds it (thick line): {name}.</source>
        <translation>ограничивающий потолок (толстая линия): {name}.</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>no roof binds it: too few loads are in flight (latency).</source>
        <translation>ни один потолок не ограничивает: в полёте слишком мало загрузок (задержка).</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>no roof binds it: the pipeline fill and epilogue take longer than the main loop.</source>
        <translation>ни один потолок не ограничивает: заполнение конвейера и эпилог длятся дольше основного цикла.</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>{dtype} roof {peak}. The GEMM (● at its HBM intensity, ◆ L2, ■ shared memory) sits {side}; predicted {tf}, {pct:.0f}% of the roof; {binds}</source>
        <translation>Потолок {dtype}: {peak}. GEMM (● — по интенсивности относительно HBM, ◆ — L2, ■ — разделяемой памяти) лежит {side}; прогноз {tf}, {pct:.0f}% потолка; {binds}</translation>
    </message>
    <message>
        <location line="+4"/>
        <source>What each roof allows at the model&apos;s rates (the lowest binds): {allows}.</source>
        <translation>Что допускает каждый потолок при скоростях модели (ограничивает самый низкий): {allows}.</translation>
    </message>
    <message>
        <location line="+6"/>
        <source>GEMM {m}×{n}×{k} {dtype} on {gpu}: {tiles} tiles in {full} wave(s) ({eff}% wave efficiency) · predicted {t} · bound: {bound}</source>
        <translation>GEMM {m}×{n}×{k} {dtype} на {gpu}: плиток {tiles}, волн {full} (эффективность волн {eff}%) · прогноз {t} · ограничение: {bound}</translation>
    </message>
    <message>
        <location line="+48"/>
        <source>&lt;b&gt;GEMM main loop&lt;/b&gt;: simulated {t}. The GEMM tab compares it with the model and says why they differ.</source>
        <translation>&lt;b&gt;Основной цикл GEMM&lt;/b&gt;: симуляция {t}. Вкладка GEMM сравнивает её с моделью и объясняет расхождение.</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>&lt;b&gt;GEMM main loop&lt;/b&gt;: simulated {t}; the GEMM model&apos;s main loop at this clock: {m} (its prediction with fill and epilogue: {p}). Hover for why they differ; the GEMM tab lists it too.</source>
        <translation>&lt;b&gt;Основной цикл GEMM&lt;/b&gt;: симуляция {t}; основной цикл модели GEMM на этой частоте: {m} (её прогноз с заполнением и эпилогом: {p}). Наведите курсор, чтобы узнать причины расхождения; они есть и на вкладке GEMM.</translation>
    </message>
    <message>
        <location line="+23"/>
        <source>The grid was cut for the simulation too, so no plan matches it exactly; the whole GEMM&apos;s main loop at the simulator&apos;s clock is {t}.</source>
        <translation>Для симуляции сокращена и сетка, поэтому точно соответствующего плана нет; основной цикл всего GEMM на частоте симулятора — {t}.</translation>
    </message>
    <message>
        <location line="+4"/>
        <source>The model&apos;s main loop at the simulator&apos;s {clock} MHz clock: &lt;b&gt;{t}&lt;/b&gt;{what} (its prediction, {p}, adds fill and epilogue and runs at {eff} MHz).</source>
        <translation>Основной цикл модели на частоте симулятора {clock} МГц: &lt;b&gt;{t}&lt;/b&gt;{what} (её прогноз, {p}, добавляет заполнение и эпилог и считает на {eff} МГц).</translation>
    </message>
    <message>
        <location line="+3"/>
        <source> for the {k} K-steps simulated</source>
        <translation> для симулированных шагов по K: {k}</translation>
    </message>
    <message>
        <location line="+4"/>
        <source>Simulating in the Explorer…</source>
        <translation>Симуляция в обозревателе…</translation>
    </message>
    <message>
        <location line="+4"/>
        <source> (×{r} the model&apos;s main loop)</source>
        <translation> (×{r} от основного цикла модели)</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>&lt;b&gt;Simulated in the Explorer: {t}&lt;/b&gt;{ratio}, the main loop only.</source>
        <translation>&lt;b&gt;Симуляция в обозревателе: {t}&lt;/b&gt;{ratio}, только основной цикл.</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>Why the two differ:</source>
        <translation>Почему они расходятся:</translation>
    </message>
    <message>
        <location line="-170"/>
        <source>{flops} (2·M·N·K)</source>
        <translation>{flops} (2·M·N·K)</translation>
    </message>
    <message>
        <location line="-226"/>
        <source>Path:</source>
        <translation>Путь:</translation>
    </message>
    <message>
        <location line="+17"/>
        <source>Simulate in the E&amp;xplorer</source>
        <translation>Симулировать в обо&amp;зревателе</translation>
    </message>
    <message>
        <location line="+167"/>
        <source>&lt;b&gt;{path}&lt;/b&gt; · {instr}</source>
        <translation>&lt;b&gt;{path}&lt;/b&gt; · {instr}</translation>
    </message>
    <message>
        <location line="+20"/>
        <source>{warps} warps: TMA, MMA and epilogue warps · {stages} stages · {k} K-steps of {bk}</source>
        <translation>варпов: {warps} — варпы TMA, MMA и эпилога · стадий: {stages} · шагов по K: {k} по {bk}</translation>
    </message>
    <message>
        <location line="+8"/>
        <source>{regs} registers per thread at launch (setmaxnreg: {c} per consumer, {p} per producer) · {smem} KiB shared memory per CTA</source>
        <translation>{regs} регистров на поток при запуске (setmaxnreg: {c} потребителю, {p} производителю) · {smem} КиБ разделяемой памяти на CTA</translation>
    </message>
    <message>
        <location line="+15"/>
        <source>{t} → {tf} of {peak} (+ about {launch} launch)</source>
        <translation>{t} → {tf} из {peak} (+ около {launch} на запуск)</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>&lt;b&gt;{bound}&lt;/b&gt; ({term})</source>
        <translation>&lt;b&gt;{bound}&lt;/b&gt; ({term})</translation>
    </message>
    <message>
        <location line="+6"/>
        <source>compute</source>
        <translation>вычисления</translation>
    </message>
    <message>
        <location line="+0"/>
        <source>memory</source>
        <translation>память</translation>
    </message>
    <message>
        <location line="+0"/>
        <source>latency</source>
        <translation>задержка</translation>
    </message>
    <message>
        <location line="+5"/>
        <source>The GPU runs &lt;b&gt;{slots} tiles at a time&lt;/b&gt;: {sms} SMs × {b} CTA(s) each.</source>
        <translation>GPU выполняет &lt;b&gt;до {slots} плиток одновременно&lt;/b&gt;: {sms} SM × {b} CTA на каждом.</translation>
    </message>
    <message>
        <location line="+5"/>
        <source>{tiles} tiles fill exactly {full} wave(s): no slot waits, wave efficiency 100%.</source>
        <translation>Плиток — {tiles}, они заполняют ровно {full} волн(ы) без остатка: ни один слот не ждёт, эффективность волн 100%.</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>{tiles} tiles fill one wave only partly: {idle} slots stay empty for the whole run, so only {eff} of the GPU&apos;s CTA slots work.</source>
        <translation>Плиток — {tiles}, они заполняют одну волну лишь частично: пустых слотов {idle} на весь прогон, поэтому работает лишь {eff} слотов CTA на GPU.</translation>
    </message>
    <message>
        <location line="+28"/>
        <source>right of the HBM ridge ({r} FLOP/B): HBM bandwidth is not the limit</source>
        <translation>правее точки перегиба HBM ({r} FLOP/Б): пропускная способность HBM не ограничивает</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>left of the HBM ridge ({r} FLOP/B): HBM bandwidth limits it</source>
        <translation>левее точки перегиба HBM ({r} FLOP/Б): ограничивает пропускная способность HBM</translation>
    </message>
    <message>
        <location line="+39"/>
        <source>The simulator cannot run this GEMM: {msg}</source>
        <translation>Симулятор не может выполнить этот GEMM: {msg}</translation>
    </message>
    <message>
        <location line="+7"/>
        <source>Sent {tiles} CTAs × {k} K-steps (the whole GEMM has {all_tiles} × {all_k}: shortened so the simulation takes seconds).</source>
        <translation>Отправлено CTA: {tiles}, шагов по K: {k} (во всём GEMM — {all_tiles} × {all_k}; сокращено, чтобы симуляция заняла секунды).</translation>
    </message>
    <message>
        <location line="+5"/>
        <source>Sent the whole GEMM: {tiles} CTAs × {k} K-steps.</source>
        <translation>Отправлен весь GEMM: CTA — {tiles}, шагов по K — {k}.</translation>
    </message>
</context>
<context>
    <name>GpuController</name>
    <message>
        <location filename="../../explorer/gui/measure/feature.py" line="+77"/>
        <location line="+106"/>
        <source>Looking for an NVIDIA GPU…</source>
        <translation>Поиск GPU NVIDIA…</translation>
    </message>
    <message>
        <location line="-94"/>
        <source>GPU measurements</source>
        <translation>Измерения на GPU</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>CUDA sources</source>
        <translation>Исходные файлы CUDA</translation>
    </message>
    <message>
        <location line="+11"/>
        <source>Open &amp;measurement…</source>
        <translation>Открыть &amp;измерение…</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>Open a GPU measurement (warp-explorer measure --out FILE.npz) and draw it over the simulation.</source>
        <translation>Открыть измерение на GPU (warp-explorer measure --out FILE.npz) и наложить его на симуляцию.</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>Run on &amp;GPU</source>
        <translation>Запустить на &amp;GPU</translation>
    </message>
    <message>
        <location line="+4"/>
        <source>Sa&amp;ve measurement as…</source>
        <translation>Сохранить измерени&amp;е как…</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>Re-simulate with the compiled &amp;kernel&apos;s resources</source>
        <translation>Пересимулировать с &amp;ресурсами скомпилированного ядра</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>Simulate the measured launch with the registers and shared memory the compiler actually produced, on the measured GPU.</source>
        <translation>Симулировать измеренный запуск с теми регистрами и разделяемой памятью, которые на самом деле выдал компилятор, на измеренном GPU.</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>Ca&amp;librate the simulator from the measurement(s)</source>
        <translation>Ка&amp;либровать симулятор по измерениям</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>Fit the simulator&apos;s DRAM latency and bandwidth to the open measurements of this GPU and show the error before and after.</source>
        <translation>Подогнать задержку и пропускную способность DRAM в симуляторе под открытые измерения этого GPU и показать ошибку до и после.</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>Close measuremen&amp;t</source>
        <translation>&amp;Закрыть измерение</translation>
    </message>
    <message>
        <location line="+35"/>
        <source>Cancel</source>
        <translation>Отмена</translation>
    </message>
    <message>
        <location line="+13"/>
        <source>&amp;Kernel source:</source>
        <translation>&amp;Исходник ядра:</translation>
    </message>
    <message>
        <location line="+36"/>
        <source>Measure the explorer&apos;s scenario on {gpu}.</source>
        <translation>Измерить сценарий обозревателя на {gpu}.</translation>
    </message>
    <message>
        <location line="+4"/>
        <source>Run on GPU is unavailable: {why}</source>
        <translation>Запуск на GPU недоступен: {why}</translation>
    </message>
    <message>
        <location line="+19"/>
        <source>Open a GPU measurement</source>
        <translation>Открыть измерение на GPU</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>GPU measurements (*.npz);;All files (*)</source>
        <translation>Измерения на GPU (*.npz);;Все файлы (*)</translation>
    </message>
    <message>
        <location line="+28"/>
        <source>Cannot open the measurement {name}: {why}</source>
        <translation>Не удаётся открыть измерение {name}: {why}</translation>
    </message>
    <message>
        <location line="-4"/>
        <source>Opened the measurement {name}.</source>
        <translation>Открыто измерение {name}.</translation>
    </message>
    <message>
        <location line="-11"/>
        <source>Opening the measurement {name}…</source>
        <translation>Открывается измерение {name}…</translation>
    </message>
    <message>
        <location line="+47"/>
        <source>simulating the launch as it ran</source>
        <translation>симуляция запуска в том виде, как он прошёл</translation>
    </message>
    <message>
        <location line="+26"/>
        <source>Save the measurement</source>
        <translation>Сохранить измерение</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>GPU measurements (*.npz)</source>
        <translation>Измерения на GPU (*.npz)</translation>
    </message>
    <message>
        <location line="+11"/>
        <source>Cannot save the measurement to {path}: {why}</source>
        <translation>Не удаётся сохранить измерение в {path}: {why}</translation>
    </message>
    <message>
        <location line="+6"/>
        <source>Saved the measurement to {path}.</source>
        <translation>Измерение сохранено в {path}.</translation>
    </message>
    <message>
        <location line="+29"/>
        <source>Measured blocks are not drawn on the SM grid: {why}.</source>
        <translation>Измеренные блоки не рисуются на сетке SM: {why}.</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>&lt;b&gt;Hatched boxes&lt;/b&gt; = blocks resident on the real GPU at this cycle (how many, not which slots) · solid outlines = simulated blocks</source>
        <translation>&lt;b&gt;Штрихованные прямоугольники&lt;/b&gt; = блоки, размещённые на настоящем GPU в этом такте (сколько, а не в каких слотах) · сплошные рамки = симулированные блоки</translation>
    </message>
    <message>
        <location line="+8"/>
        <source>This measurement carries no scenario to re-simulate.</source>
        <translation>В этом измерении нет сценария для повторной симуляции.</translation>
    </message>
    <message>
        <location line="+17"/>
        <source>GPU run</source>
        <translation>Запуск на GPU</translation>
    </message>
    <message>
        <location line="+0"/>
        <source>Calibration</source>
        <translation>Калибровка</translation>
    </message>
    <message>
        <location line="+21"/>
        <source>Cancelled.</source>
        <translation>Отменено.</translation>
    </message>
    <message>
        <location line="+5"/>
        <source>No usable GPU: {m}</source>
        <translation>Нет пригодного GPU: {m}</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>The kernel could not be prepared: {m}</source>
        <translation>Не удалось подготовить ядро: {m}</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>The GPU run failed: {m}</source>
        <translation>Запуск на GPU не удался: {m}</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Unexpected error (a bug; details on the console): {m}</source>
        <translation>Непредвиденная ошибка (это баг; подробности в консоли): {m}</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>Cannot calibrate: {m}</source>
        <translation>Калибровка невозможна: {m}</translation>
    </message>
    <message>
        <location line="+0"/>
        <source>The calibration failed: {m}</source>
        <translation>Калибровка не удалась: {m}</translation>
    </message>
    <message>
        <location line="+9"/>
        <source>Cancelling…</source>
        <translation>Отмена…</translation>
    </message>
    <message>
        <location line="+16"/>
        <source>GPU run: starting…</source>
        <translation>Запуск на GPU: начало…</translation>
    </message>
    <message>
        <location line="+5"/>
        <source>Measured on {device}. File &gt; Save measurement as… keeps it.</source>
        <translation>Измерено на {device}. Чтобы сохранить: Файл &gt; Сохранить измерение как…</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>the GPU</source>
        <translation>GPU</translation>
    </message>
    <message>
        <location line="+24"/>
        <source>Open a measurement (with its scenario) to calibrate from.</source>
        <translation>Откройте измерение (со сценарием), чтобы калибровать по нему.</translation>
    </message>
    <message>
        <location line="+12"/>
        <source>Calibration: starting…</source>
        <translation>Калибровка: начало…</translation>
    </message>
    <message>
        <location line="+5"/>
        <source>Calibrated: RMS error {b}% → {a}%.</source>
        <translation>Калибровка выполнена: среднеквадратичная ошибка {b}% → {a}%.</translation>
    </message>
    <message>
        <location line="+22"/>
        <source>Warp Explorer</source>
        <translation>Warp Explorer</translation>
    </message>
    <message>
        <location line="+33"/>
        <source>Finish or cancel the GPU run first: changing the language rebuilds the window.</source>
        <translation>Сначала завершите или отмените запуск на GPU: смена языка пересоздаёт окно.</translation>
    </message>
</context>
<context>
    <name>GridOverlay</name>
    <message>
        <location filename="../../explorer/gui/measure/overlay.py" line="+240"/>
        <source>the measured GPU has {ms} SMs × {mw} warp slots, the simulated one {ss} × {sw}</source>
        <translation>измеренный GPU: {ms} SM, слотов варпов на SM: {mw}; симулированный: {ss} SM, {sw}</translation>
    </message>
    <message>
        <location line="+41"/>
        <source>&lt;b&gt;Measured&lt;/b&gt; (hatched boxes): {w} warps in {b} blocks{ids} at this cycle; {total} blocks ran here in all</source>
        <translation>&lt;b&gt;Измерено&lt;/b&gt; (штриховка): варпов {w} в блоках ({b}){ids} в этом такте; всего здесь выполнено блоков: {total}</translation>
    </message>
    <message>
        <location line="+4"/>
        <source> (hardware %smid {hw})</source>
        <translation> (аппаратный %smid {hw})</translation>
    </message>
</context>
<context>
    <name>Guard</name>
    <message>
        <location filename="../../explorer/gui/common/guard.py" line="+47"/>
        <source>Warp Explorer</source>
        <translation>Warp Explorer</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Unexpected error (a bug; the details are in the log): {m}</source>
        <translation>Непредвиденная ошибка (это баг; подробности в журнале): {m}</translation>
    </message>
</context>
<context>
    <name>HierarchyView</name>
    <message>
        <location filename="../../explorer/gui/gemm/memory_page.py" line="-380"/>
        <source>Level</source>
        <translation>Уровень</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Who sees it</source>
        <translation>Кому видна</translation>
    </message>
    <message>
        <location line="+0"/>
        <source>Scope: the data is private to a thread, shared by a block&apos;s threads, by everything on one SM, or by the whole GPU.</source>
        <translation>Область видимости: данные принадлежат одному потоку, общие для потоков блока, для всего на одном SM или для всего GPU.</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>Capacity (log scale)</source>
        <translation>Объём (лог. шкала)</translation>
    </message>
    <message>
        <location line="+0"/>
        <source>Size of one instance; the bar&apos;s scale runs from 1 KiB to 1 TiB, each tick a factor of 1,024.</source>
        <translation>Размер одного экземпляра; шкала полосы — от 1 КиБ до 1 ТиБ, каждое деление — множитель 1024.</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>Latency (cycles)</source>
        <translation>Задержка (такты)</translation>
    </message>
    <message>
        <location line="+0"/>
        <source>Cycles from issuing a load to its data, drawn to a linear scale.</source>
        <translation>Такты от выдачи загрузки до получения данных, в линейном масштабе.</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Bandwidth, whole GPU (log scale)</source>
        <translation>Пропускная способность, весь GPU (лог. шкала)</translation>
    </message>
    <message>
        <location line="+0"/>
        <source>Bytes per second the level can deliver to all SMs together; scale 100 GB/s to 1 PB/s.</source>
        <translation>Байт в секунду, которые уровень может отдать всем SM вместе; шкала от 100 ГБ/с до 1 ПБ/с.</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>This simulation</source>
        <translation>Эта симуляция</translation>
    </message>
    <message>
        <location line="+0"/>
        <source>Bytes each level moved in the Explorer&apos;s current simulation (SimResult.memory_bytes), and the rate over the kernel&apos;s time.</source>
        <translation>Байты, перемещённые каждым уровнем в текущей симуляции обозревателя (SimResult.memory_bytes), и скорость за время работы ядра.</translation>
    </message>
    <message>
        <location line="+78"/>
        <source>per thread</source>
        <translation>на поток</translation>
    </message>
    <message>
        <location line="+0"/>
        <source>per block</source>
        <translation>на блок</translation>
    </message>
    <message>
        <location line="+0"/>
        <location line="+51"/>
        <source>per SM</source>
        <translation>на SM</translation>
    </message>
    <message>
        <location line="-50"/>
        <source>whole GPU</source>
        <translation>весь GPU</translation>
    </message>
    <message>
        <location line="+38"/>
        <source>Memory hierarchy of the {gpu} ({sms} SMs, {clock} MHz) — drawn to scale</source>
        <translation>Иерархия памяти {gpu} ({sms} SM, {clock} МГц) — в масштабе</translation>
    </message>
    <message>
        <location line="+9"/>
        <source>{where}; managed by the {who}.</source>
        <translation>{where}; управляет: {who}.</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>Managed by the {who}</source>
        <translation>Управляет: {who}</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>on the GPU</source>
        <translation>на GPU</translation>
    </message>
    <message>
        <location line="+5"/>
        <source>× {n} SMs = {total}</source>
        <translation>× {n} SM = {total}</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>thread</source>
        <translation>поток</translation>
    </message>
    <message>
        <location line="+0"/>
        <source>block</source>
        <translation>блок</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>at most {b} per {who}</source>
        <translation>не больше {b} на {who}</translation>
    </message>
    <message>
        <location line="+4"/>
        <source>in the pipeline</source>
        <translation>в конвейере</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>a dependent FMA waits {c} cycles</source>
        <translation>зависимая FMA ждёт тактов: {c}</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>{c} cycles</source>
        <translation>тактов: {c}</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>{ns:.0f} ns at {clock} MHz</source>
        <translation>{ns:.0f} нс при {clock} МГц</translation>
    </message>
    <message>
        <location line="+4"/>
        <source>{b} B per clock per SM</source>
        <translation>{b} Б за такт на SM</translation>
    </message>
    <message>
        <location line="+36"/>
        <source>{bytes} · {rate} ({share} of peak)</source>
        <translation>{bytes} · {rate} ({share} пика)</translation>
    </message>
    <message>
        <location line="+15"/>
        <source>{b} bytes · {hit} of {n} sectors hit</source>
        <translation>{b} байт · попаданий {hit} из {n} секторов</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>{b} bytes</source>
        <translation>{b} Б</translation>
    </message>
    <message>
        <location line="-53"/>
        <source> (estimate)</source>
        <translation> (оценка)</translation>
    </message>
    <message>
        <location line="+9"/>
        <source>L1 cache</source>
        <translation>Кэш L1</translation>
    </message>
    <message>
        <location line="+20"/>
        <source>not counted</source>
        <translation>не учитывается</translation>
    </message>
    <message>
        <location line="+0"/>
        <source>no simulation yet</source>
        <translation>симуляции ещё нет</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>0 B</source>
        <translation>0 Б</translation>
    </message>
    <message>
        <location line="+6"/>
        <source>{bytes} · {rate}</source>
        <translation>{bytes} · {rate}</translation>
    </message>
    <message>
        <location line="+9"/>
        <source>operands are not counted</source>
        <translation>операнды не учитываются</translation>
    </message>
</context>
<context>
    <name>KernelFeature</name>
    <message>
        <location filename="../../explorer/gui/kernel/feature.py" line="+20"/>
        <source>Your kernel</source>
        <translation>Ваше ядро</translation>
    </message>
</context>
<context>
    <name>KernelPage</name>
    <message>
        <location filename="../../explorer/gui/kernel/page.py" line="+83"/>
        <source>Open .cu…</source>
        <translation>Открыть .cu…</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>Open a CUDA source file (also File &gt; Open, or drop it on the window).</source>
        <translation>Открыть исходный файл CUDA (также Файл &gt; Открыть или перетащите его на окно).</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>no file</source>
        <translation>нет файла</translation>
    </message>
    <message>
        <location line="+22"/>
        <location line="+209"/>
        <source>Compiled with NVRTC (no GPU needed).</source>
        <translation>Компилируется NVRTC (GPU не нужен).</translation>
    </message>
    <message>
        <location line="-206"/>
        <source>&amp;Kernel:</source>
        <translation>&amp;Ядро:</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>The file&apos;s kernels (C++ kernels by their demangled names).</source>
        <translation>Ядра файла (ядра C++ — по деманглированным именам).</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>GP&amp;U:</source>
        <translation>GP&amp;U:</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>The GPU the kernel is compiled for and simulated on.</source>
        <translation>GPU, для которого ядро компилируется и на котором моделируется.</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>G&amp;rid:</source>
        <translation>С&amp;етка:</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Blocks in the grid: N or x, y, z.</source>
        <translation>Блоков в сетке: N или x, y, z.</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Blo&amp;ck:</source>
        <translation>&amp;Блок:</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Threads per block: N or x, y, z (at most 1024 in all).</source>
        <translation>Потоков в блоке: N или x, y, z (всего не больше 1024).</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>D&amp;ynamic shared memory (B):</source>
        <translation>&amp;Динамическая разделяемая память (Б):</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Bytes of extern __shared__ memory per block, given at launch.</source>
        <translation>Байт памяти extern __shared__ на блок, задаётся при запуске.</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Registers per thread:</source>
        <translation>Регистров на поток:</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>From the compiled kernel (cubin); occupancy uses it. Read-only.</source>
        <translation>Из скомпилированного ядра (cubin); используется для заполняемости. Только чтение.</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Static shared memory (B):</source>
        <translation>Статическая разделяемая память (Б):</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>The kernel&apos;s __shared__ arrays, from the cubin; occupancy uses it. Read-only.</source>
        <translation>Массивы __shared__ ядра, из cubin; используется для заполняемости. Только чтение.</translation>
    </message>
    <message>
        <location line="+5"/>
        <source>Arguments</source>
        <translation>Аргументы</translation>
    </message>
    <message>
        <location line="+4"/>
        <source>&amp;Simulate</source>
        <translation>Модели&amp;ровать</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>Execute the kernel lane by lane from its SASS (no GPU needed) and hand its scenario to the Explorer.</source>
        <translation>Выполнить ядро по линиям из его SASS (GPU не нужен) и передать его сценарий Обозревателю.</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>Cancel</source>
        <translation>Отмена</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>Stop the compiler, or the run (after the blocks being executed).</source>
        <translation>Остановить компилятор или запуск (после выполняемых сейчас блоков).</translation>
    </message>
    <message>
        <location line="+6"/>
        <source>Blocks executed so far.</source>
        <translation>Сколько блоков уже выполнено.</translation>
    </message>
    <message>
        <location line="+11"/>
        <source>Your own CUDA kernel, executed from its compiled SASS warp by warp, 32 lanes: real addresses, divergence, barriers. Pointer parameters are buffers the window allocates and fills.</source>
        <translation>Ваше собственное ядро CUDA, выполняемое из скомпилированного SASS варп за варпом, по 32 линии: настоящие адреса, расхождение, барьеры. Параметры-указатели — буферы, которые окно выделяет и заполняет.</translation>
    </message>
    <message>
        <location line="+46"/>
        <source>Open a CUDA source</source>
        <translation>Открыть исходный файл CUDA</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>CUDA sources (*.cu);;All files (*)</source>
        <translation>Исходники CUDA (*.cu);;Все файлы (*)</translation>
    </message>
    <message>
        <location line="+24"/>
        <source>Reading the kernels of {name}…</source>
        <translation>Читаю ядра из {name}…</translation>
    </message>
    <message>
        <location line="+18"/>
        <source>{name} has no __global__ kernel</source>
        <translation>в {name} нет ядра __global__</translation>
    </message>
    <message>
        <location line="+23"/>
        <source>Compiling {kernel} in {name} for {gpu}…</source>
        <translation>Компилирую {kernel} из {name} для {gpu}…</translation>
    </message>
    <message>
        <location line="+33"/>
        <source>{kernel} for {arch} ({compiler}): {regs} registers, {smem} B static shared memory, {bars} barriers, {n} instructions.</source>
        <translation>{kernel} для {arch} ({compiler}): {regs} регистров, {smem} Б статической разделяемой памяти, барьеров: {bars}, инструкций: {n}.</translation>
    </message>
    <message>
        <location line="+5"/>
        <source>{n} of its instructions are not supported by the executor (a run that reaches one stops there, naming it).</source>
        <translation>{n} его инструкций исполнитель не поддерживает (запуск, дошедший до такой, останавливается на ней и называет её).</translation>
    </message>
    <message>
        <location line="+3"/>
        <location line="+48"/>
        <source>Fill in the arguments and press Simulate.</source>
        <translation>Заполните аргументы и нажмите «Моделировать».</translation>
    </message>
    <message>
        <location line="-12"/>
        <source>Give a value</source>
        <translation>Введите значение</translation>
    </message>
    <message>
        <location line="+10"/>
        <source>Some fields are invalid: see the messages under them.</source>
        <translation>Некоторые поля неверны: см. сообщения под ними.</translation>
    </message>
    <message>
        <location line="+11"/>
        <source>No block of this launch fits an SM.</source>
        <translation>Ни один блок этого запуска не помещается на SM.</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>Theoretical occupancy {occ}: {blocks} blocks per SM, limited by {lim}.</source>
        <translation>Теоретическая заполняемость {occ}: {blocks} блоков на SM, ограничение: {lim}.</translation>
    </message>
    <message>
        <location line="+12"/>
        <source>Not simulated: some fields are invalid.</source>
        <translation>Не смоделировано: некоторые поля неверны.</translation>
    </message>
    <message>
        <location line="+8"/>
        <source>Executing {kernel}: {blocks} blocks…</source>
        <translation>Выполняю {kernel}: {blocks} блоков…</translation>
    </message>
    <message>
        <location line="+62"/>
        <source>Executed {wi} warp-instructions; the Explorer now holds this scenario.</source>
        <translation>Выполнено варп-инструкций: {wi}; этот сценарий теперь в Обозревателе.</translation>
    </message>
    <message>
        <location line="+18"/>
        <source>Cancelled: the run was stopped; the last report stays.</source>
        <translation>Отменено: запуск остановлен, последний отчёт остаётся.</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>Cancelled: the compiler was stopped.</source>
        <translation>Отменено: компилятор остановлен.</translation>
    </message>
    <message>
        <location line="+10"/>
        <source>no CUDA compiler: {m}</source>
        <translation>нет компилятора CUDA: {m}</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>The run failed (a bug): {m}</source>
        <translation>Запуск не удался (ошибка программы): {m}</translation>
    </message>
    <message>
        <location line="+39"/>
        <source>the Explorer shows another scenario now</source>
        <translation>Обозреватель сейчас показывает другой сценарий</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>no cycle count: {why}</source>
        <translation>без числа тактов: {why}</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>the Explorer is simulating it… {p}</source>
        <translation>Обозреватель моделирует его… {p}</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>{cycles} cycles ({us} µs at the GPU&apos;s clock): see the Explorer tab</source>
        <translation>{cycles} тактов ({us} мкс на частоте GPU): см. вкладку Обозреватель</translation>
    </message>
    <message>
        <location line="+82"/>
        <source>Finish or cancel the kernel&apos;s run first: changing the language rebuilds the window.</source>
        <translation>Сначала дождитесь конца запуска ядра или отмените его: смена языка пересоздаёт окно.</translation>
    </message>
</context>
<context>
    <name>LanguageMenu</name>
    <message>
        <location filename="../../explorer/gui/shell/language.py" line="+36"/>
        <source>&amp;Language</source>
        <translation>&amp;Язык</translation>
    </message>
    <message>
        <location line="+11"/>
        <source>Show the interface and the lessons in this language.</source>
        <translation>Показывать интерфейс и уроки на этом языке.</translation>
    </message>
    <message>
        <location line="+51"/>
        <source>Language: {name}</source>
        <translation>Язык: {name}</translation>
    </message>
</context>
<context>
    <name>LessonController</name>
    <message>
        <location filename="../../explorer/gui/lessons/panel.py" line="+251"/>
        <source>Lesson skipped: {why}</source>
        <translation>Урок пропущен: {why}</translation>
    </message>
    <message>
        <location line="+11"/>
        <location line="+73"/>
        <source>Lesson</source>
        <translation>Урок</translation>
    </message>
    <message>
        <location line="-40"/>
        <source>&amp;Lessons</source>
        <translation>&amp;Уроки</translation>
    </message>
    <message>
        <location line="+9"/>
        <source>&amp;Next step</source>
        <translation>&amp;Следующий шаг</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>&amp;Previous step</source>
        <translation>&amp;Предыдущий шаг</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>&amp;End lesson</source>
        <translation>&amp;Завершить урок</translation>
    </message>
    <message>
        <location line="+7"/>
        <source>Show the lesson &amp;panel</source>
        <translation>Показать панель &amp;урока</translation>
    </message>
    <message>
        <location line="+20"/>
        <source>Lesson: {title}</source>
        <translation>Урок: {title}</translation>
    </message>
    <message>
        <location line="+114"/>
        <source>This step&apos;s scenario is not valid: {msg}</source>
        <translation>Сценарий этого шага некорректен: {msg}</translation>
    </message>
    <message>
        <location line="+66"/>
        <source>(This step belongs to a view this version does not have; the narration still applies.)</source>
        <translation>(Этот шаг относится к виду, которого нет в этой версии; пояснение всё равно в силе.)</translation>
    </message>
</context>
<context>
    <name>LessonPanel</name>
    <message>
        <location line="-432"/>
        <source>Choose a lesson</source>
        <translation>Выберите урок</translation>
    </message>
    <message>
        <location line="+7"/>
        <source>◀ Previous</source>
        <translation>◀ Назад</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>Previous step (Page Up)</source>
        <translation>Предыдущий шаг (Page Up)</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Next ▶</source>
        <translation>Далее ▶</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>Next step (Page Down)</source>
        <translation>Следующий шаг (Page Down)</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>End lesson</source>
        <translation>Завершить урок</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>Leave the lesson; the scenario it reached stays, ready to edit.</source>
        <translation>Выйти из урока; достигнутый сценарий остаётся, его можно редактировать.</translation>
    </message>
    <message>
        <location line="+53"/>
        <source>Choose a lesson…</source>
        <translation>Выберите урок…</translation>
    </message>
    <message>
        <location line="+16"/>
        <source>Choose a lesson above or in the Lessons menu. Page Down and Page Up (what presentation clickers send) move through its steps.</source>
        <translation>Выберите урок выше или в меню «Уроки». Page Down и Page Up (их посылают пульты для презентаций) переключают шаги.</translation>
    </message>
    <message>
        <location line="+9"/>
        <source>Step {k} of {n}</source>
        <translation>Шаг {k} из {n}</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>figures of the workload model</source>
        <translation>числа модели нагрузки</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>figures of the kernel&apos;s SASS</source>
        <translation>числа SASS ядра</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>This lesson runs its scenarios with the workload model (the generated kernel&apos;s loop as the simulator&apos;s own program), so its figures differ a little from the default start&apos;s, which runs the kernel&apos;s SASS; leaving the lesson restores the program you had.</source>
        <translation>Этот урок запускает свои сценарии на модели нагрузки (цикл сгенерированного ядра как собственная программа симулятора), поэтому его числа немного отличаются от стартовых, где выполняется SASS ядра; после выхода из урока вернётся ваша программа.</translation>
    </message>
    <message>
        <location line="+10"/>
        <source>Simulating…</source>
        <translation>Симуляция…</translation>
    </message>
</context>
<context>
    <name>LevelTrafficView</name>
    <message>
        <location filename="../../explorer/gui/gemm/charts.py" line="+518"/>
        <source>Bytes per level: where the data comes from</source>
        <translation>Байты по уровням: откуда приходят данные</translation>
    </message>
    <message>
        <location line="+4"/>
        <source>Path</source>
        <translation>Путь</translation>
    </message>
    <message>
        <location line="+0"/>
        <source>Bytes moved (log scale)</source>
        <translation>Перемещено байтов (лог. шкала)</translation>
    </message>
    <message>
        <location line="+0"/>
        <source>FLOP/byte</source>
        <translation>FLOP/байт</translation>
    </message>
    <message>
        <location line="+0"/>
        <source>Reuse</source>
        <translation>Повт. исп.</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Bytes crossing this boundary over the whole GEMM (reads toward the math units + writes of C).</source>
        <translation>Байты, пересекающие эту границу за весь GEMM (чтения в сторону вычислительных узлов + запись C).</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>FLOPs of the whole GEMM per byte crossing this boundary.</source>
        <translation>FLOP всего GEMM на каждый байт, пересекающий эту границу.</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>How many times each operand byte read here is used: 2·M·N·K·element size / bytes read. An untiled GEMM that read every operand from memory would have reuse 1.</source>
        <translation>Сколько раз используется каждый прочитанный здесь байт операндов: 2·M·N·K·размер элемента / прочитанные байты. У GEMM без плиток, читающего каждый операнд из памяти, повторное использование было бы 1.</translation>
    </message>
    <message>
        <location line="+44"/>
        <source>{path}: read {rd}, written {wr}. {note}</source>
        <translation>{path}: прочитано {rd}, записано {wr}. {note}</translation>
    </message>
    <message>
        <location line="+5"/>
        <source>No operand bytes are read here, so there is no reuse to count. {tip}</source>
        <translation>Здесь не читается ни одного байта операндов, так что повторного использования нет. {tip}</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>Minimum HBM traffic (A and B read once, C written once): {min} → arithmetic intensity {ai} FLOP/byte. The model&apos;s HBM traffic: {hbm} (L2 hit rate of the tile loads {hit}).</source>
        <translation>Минимальный трафик HBM (A и B читаются один раз, C записывается один раз): {min} → арифметическая интенсивность {ai} FLOP/байт. Трафик HBM по модели: {hbm} (доля попаданий в L2 при загрузке плиток {hit}).</translation>
    </message>
</context>
<context>
    <name>MainWindow</name>
    <message>
        <location filename="../../explorer/gui/shell/main_window.py" line="+111"/>
        <source>Warp Explorer</source>
        <translation>Warp Explorer</translation>
    </message>
    <message>
        <location line="+19"/>
        <source>&amp;Explorer</source>
        <translation>&amp;Обозреватель</translation>
    </message>
    <message>
        <location line="+8"/>
        <source>&amp;Occupancy calculator</source>
        <translation>&amp;Калькулятор заполняемости</translation>
    </message>
    <message>
        <location line="+116"/>
        <source>none</source>
        <translation>нет</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Cannot open {name}: not a file kind this app reads ({kinds}).</source>
        <translation>Не удаётся открыть {name}: приложение не читает файлы такого типа ({kinds}).</translation>
    </message>
    <message>
        <location line="+18"/>
        <source>{name} cannot be opened:
{why}</source>
        <translation>Не удаётся открыть {name}:
{why}</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Cannot open {name}</source>
        <translation>Не удаётся открыть {name}</translation>
    </message>
    <message>
        <location line="+7"/>
        <source>Open</source>
        <translation>Открыть</translation>
    </message>
    <message>
        <location line="+20"/>
        <source>&amp;File</source>
        <translation>&amp;Файл</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>&amp;Open…</source>
        <translation>&amp;Открыть…</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>Open a scenario or a measurement (files can also be dropped on the window).</source>
        <translation>Открыть сценарий или измерение (файлы можно и перетащить в окно).</translation>
    </message>
    <message>
        <location line="+4"/>
        <source>&amp;Quit</source>
        <translation>В&amp;ыход</translation>
    </message>
    <message>
        <location line="+8"/>
        <source>E&amp;dit</source>
        <translation>&amp;Правка</translation>
    </message>
    <message>
        <location line="+1"/>
        <location line="+57"/>
        <source>&amp;Undo</source>
        <translation>&amp;Отменить</translation>
    </message>
    <message>
        <location line="-53"/>
        <location line="+54"/>
        <source>&amp;Redo</source>
        <translation>&amp;Повторить</translation>
    </message>
    <message>
        <location line="-43"/>
        <source>&amp;View</source>
        <translation>&amp;Вид</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>&amp;Theme</source>
        <translation>&amp;Тема</translation>
    </message>
    <message>
        <location line="+4"/>
        <source>&amp;System</source>
        <translation>&amp;Системная</translation>
    </message>
    <message>
        <location line="+0"/>
        <source>&amp;Light</source>
        <translation>С&amp;ветлая</translation>
    </message>
    <message>
        <location line="+0"/>
        <source>&amp;Dark</source>
        <translation>&amp;Тёмная</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>Follow the operating system&apos;s light or dark setting.</source>
        <translation>Как в операционной системе: светлая или тёмная.</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Dark text on a light background.</source>
        <translation>Тёмный текст на светлом фоне.</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Light text on a dark background.</source>
        <translation>Светлый текст на тёмном фоне.</translation>
    </message>
    <message>
        <location line="+11"/>
        <source>&amp;Help</source>
        <translation>&amp;Справка</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>&amp;About Warp Explorer</source>
        <translation>&amp;О программе Warp Explorer</translation>
    </message>
    <message>
        <location line="+4"/>
        <source>About &amp;Qt</source>
        <translation>О &amp;Qt</translation>
    </message>
    <message>
        <location line="+7"/>
        <source>Field Edit</source>
        <translation>правку поля</translation>
    </message>
    <message>
        <location line="+0"/>
        <source>Loading a Preset</source>
        <translation>загрузку сценария</translation>
    </message>
    <message>
        <location line="+0"/>
        <source>Opening a File</source>
        <translation>открытие файла</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Simulate in the Explorer</source>
        <translation>«Симулировать в обозревателе»</translation>
    </message>
    <message>
        <location line="+0"/>
        <source>Measured Scenario</source>
        <translation>сценарий измерения</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Re-simulation with the Compiled Kernel</source>
        <translation>повторную симуляцию с ресурсами ядра</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Simulating Your Kernel</source>
        <translation>Моделирование вашего ядра</translation>
    </message>
    <message>
        <location line="+7"/>
        <source>&amp;Undo {what}</source>
        <translation>&amp;Отменить {what}</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>&amp;Redo {what}</source>
        <translation>&amp;Повторить {what}</translation>
    </message>
    <message>
        <location line="+19"/>
        <source>About Warp Explorer</source>
        <translation>О программе Warp Explorer</translation>
    </message>
    <message>
        <location line="+4"/>
        <source>&lt;h3&gt;Warp Explorer {version}&lt;/h3&gt;&lt;p&gt;See how a GPU runs a kernel: the work you &lt;b&gt;launch&lt;/b&gt;, the work &lt;b&gt;resident&lt;/b&gt; on the SMs, and the warps &lt;b&gt;ready&lt;/b&gt; to issue right now.&lt;/p&gt;&lt;p&gt;Occupancy follows NVIDIA&apos;s rules (cuda_occupancy.h). Colours: the Okabe–Ito colour-blind-safe palette.&lt;/p&gt;</source>
        <translation>&lt;h3&gt;Warp Explorer {version}&lt;/h3&gt;&lt;p&gt;Как GPU выполняет ядро: работа, которую вы &lt;b&gt;запускаете&lt;/b&gt;, работа, &lt;b&gt;размещённая&lt;/b&gt; на SM, и варпы, &lt;b&gt;готовые&lt;/b&gt; выдать инструкцию прямо сейчас.&lt;/p&gt;&lt;p&gt;Заполняемость считается по правилам NVIDIA (cuda_occupancy.h). Цвета: палитра Окабэ–Ито, различимая при нарушениях цветового зрения.&lt;/p&gt;</translation>
    </message>
</context>
<context>
    <name>MeasuredLegend</name>
    <message>
        <location filename="../../explorer/gui/measure/overlay.py" line="-122"/>
        <source>measured resident</source>
        <translation>размещено (измерено)</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>measured unfinished</source>
        <translation>измерено: осталось</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>Warps resident on the SMs of the real GPU, from each warp&apos;s (or block&apos;s) start and end timestamps. Dotted; the simulated curve is solid.</source>
        <translation>Варпы, размещённые на SM настоящего GPU, по отметкам времени начала и конца каждого варпа (или блока). Пунктир; симулированная кривая — сплошная.</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>Warps of the real launch not finished yet. Dash-dot; the simulated &apos;launched&apos; curve is dashed.</source>
        <translation>Ещё не завершённые варпы настоящего запуска. Штрихпунктир; симулированная кривая «запущено» — штриховая.</translation>
    </message>
    <message>
        <location line="+15"/>
        <source>&lt;b&gt;GPU (synthetic):&lt;/b&gt;</source>
        <translation>&lt;b&gt;GPU (синтетическое):&lt;/b&gt;</translation>
    </message>
    <message>
        <location line="+0"/>
        <source>&lt;b&gt;GPU:&lt;/b&gt;</source>
        <translation>&lt;b&gt;GPU:&lt;/b&gt;</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Measured on {device}; time from the kernel&apos;s first warp, in its SM cycles.</source>
        <translation>Измерено на {device}; время от первого варпа ядра, в тактах его SM.</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>Synthetic: made from a simulation, not measured.</source>
        <translation>Синтетическое: получено из симуляции, а не измерено.</translation>
    </message>
</context>
<context>
    <name>MeasurementBox</name>
    <message>
        <location filename="../../explorer/gui/measure/panel.py" line="+46"/>
        <source>Simulated vs measured on the GPU</source>
        <translation>Симуляция и измерение на GPU</translation>
    </message>
    <message>
        <location line="+23"/>
        <source>Sim.</source>
        <translation>Сим.</translation>
    </message>
    <message>
        <location line="+0"/>
        <source>Simulated: the simulation on screen (solid curves, solid block outlines).</source>
        <translation>Симуляция: та, что на экране (сплошные кривые, сплошные рамки блоков).</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Measured</source>
        <translation>Измерено</translation>
    </message>
    <message>
        <location line="+0"/>
        <source>Measured: the GPU run (dotted curves, hatched block boxes).</source>
        <translation>Измерено: запуск на GPU (пунктирные кривые, штрихованные блоки).</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Error</source>
        <translation>Ошибка</translation>
    </message>
    <message>
        <location line="+0"/>
        <source>Simulated ÷ measured − 1 (for shares: simulated − measured, in points), and what it means: within 5%, within 15%, or off.</source>
        <translation>Симуляция ÷ измерение − 1 (для долей: симуляция − измерение, в процентных пунктах) и что это значит: в пределах 5%, в пределах 15% или мимо.</translation>
    </message>
    <message>
        <location line="+31"/>
        <source>Re-simulate with the compiled kernel</source>
        <translation>Пересимулировать со скомпилированным ядром</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>Calibrate…</source>
        <translation>Калибровать…</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>Close</source>
        <translation>Закрыть</translation>
    </message>
    <message>
        <location line="+6"/>
        <source>Simulate the measured launch with the registers and shared memory the compiler actually produced, on the measured GPU.</source>
        <translation>Симулировать измеренный запуск с теми регистрами и разделяемой памятью, которые на самом деле выдал компилятор, на измеренном GPU.</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>Fit the simulator&apos;s DRAM latency and bandwidth to the open measurements of this GPU; shows the error before and after.</source>
        <translation>Подогнать задержку и пропускную способность DRAM в симуляторе под открытые измерения этого GPU; показывает ошибку до и после.</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>Stop showing the measurement.</source>
        <translation>Больше не показывать измерение.</translation>
    </message>
    <message>
        <location line="+27"/>
        <source>Duration (cyc.)</source>
        <translation>Длительность (такты)</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>From the first warp&apos;s start to the last warp&apos;s end, in SM cycles of each run&apos;s clock.</source>
        <translation>От начала первого варпа до конца последнего, в тактах SM на частоте каждого прогона.</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Duration (µs)</source>
        <translation>Длительность (мкс)</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Simulated: cycles at the catalog&apos;s boost clock. Measured: CUDA events (median of the timed launches).</source>
        <translation>Симуляция: такты на boost-частоте из каталога. Измерено: события CUDA (медиана замеренных запусков).</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>SM clock (MHz)</source>
        <translation>Частота SM (МГц)</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Measured: clock64 cycles over globaltimer nanoseconds while the kernel ran.</source>
        <translation>Измерено: такты clock64, делённые на наносекунды globaltimer за время работы ядра.</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Mean block (cyc.)</source>
        <translation>Средний блок (такты)</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Average time from a block&apos;s first warp starting to its last warp ending.</source>
        <translation>Среднее время от начала первого варпа блока до конца его последнего варпа.</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Achieved occ.</source>
        <translation>Достигнутая заполн.</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Resident warps averaged over the cycles an SM was active ÷ its warp slots, from the residency curves (Nsight&apos;s sm__warps_active).</source>
        <translation>Размещённые варпы, усреднённые по тактам, когда SM был активен, ÷ его слоты варпов, по кривым размещения (sm__warps_active в Nsight).</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>Theoretical occ.</source>
        <translation>Теоретическая заполн.</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>NVIDIA&apos;s occupancy rules. Measured: with the compiled kernel&apos;s registers and shared memory.</source>
        <translation>Правила заполняемости NVIDIA. Измерено: с регистрами и разделяемой памятью скомпилированного ядра.</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>Blocks/SM allowed</source>
        <translation>Блоков/SM допустимо</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Blocks one SM can hold by NVIDIA&apos;s occupancy rules (our calculator). Measured: with the compiled kernel&apos;s resources.</source>
        <translation>Сколько блоков вмещает один SM по правилам заполняемости NVIDIA (наш калькулятор). Измерено: с ресурсами скомпилированного ядра.</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>  driver&apos;s answer</source>
        <translation>  ответ драйвера</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>The driver&apos;s own occupancy answer for the compiled kernel (cuOccupancyMaxActiveBlocksPerMultiprocessor), beside ours.</source>
        <translation>Собственный ответ драйвера о заполняемости для скомпилированного ядра (cuOccupancyMaxActiveBlocksPerMultiprocessor) рядом с нашим.</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>Blocks/SM (peak)</source>
        <translation>Блоков/SM (пик)</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>The most blocks any SM actually held at the same time.</source>
        <translation>Наибольшее число блоков, одновременно размещённых на каком-либо SM.</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>SMs busy</source>
        <translation>Занятость SM</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Share of SM-cycles with at least one resident warp.</source>
        <translation>Доля SM-тактов, в которых размещён хотя бы один варп.</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>“GPU util.” (NVML)</source>
        <translation>«Загрузка GPU» (NVML)</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Simulated: share of cycles with a kernel running. Measured: NVML&apos;s utilization.gpu sampled during repeated launches.</source>
        <translation>Симуляция: доля тактов, когда работает ядро. Измерено: utilization.gpu из NVML, снятая во время повторных запусков.</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>GPM SM occupancy</source>
        <translation>Заполняемость SM по GPM</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Measured: NVML GPM&apos;s SM occupancy; simulated: achieved occupancy.</source>
        <translation>Измерено: заполняемость SM по NVML GPM; симуляция: достигнутая заполняемость.</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Registers/thread</source>
        <translation>Регистров/поток</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Simulated: the scenario&apos;s. Measured: what the compiler produced (cubin).</source>
        <translation>Симуляция: из сценария. Измерено: что выдал компилятор (cubin).</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Static smem (B)</source>
        <translation>Статич. smem (Б)</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Simulated: the scenario&apos;s. Measured: the cubin&apos;s .nv.shared section without the reserved 1 KB.</source>
        <translation>Симуляция: из сценария. Измерено: секция .nv.shared в cubin без зарезервированного 1 КБ.</translation>
    </message>
    <message>
        <location line="+17"/>
        <source>As it ran (the measured placement of blocks, L2 as the launch found it): duration {sim} vs {meas} cycles, {e} — {word}.</source>
        <translation>Как прошёл запуск (измеренное размещение блоков, L2 в том состоянии, в каком его застал запуск): длительность {sim} против {meas} тактов, {e} — {word}.</translation>
    </message>
    <message>
        <location line="+34"/>
        <source>kernel</source>
        <translation>ядро</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>not saved yet</source>
        <translation>ещё не сохранено</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>&lt;b&gt;{name}&lt;/b&gt; on {device} ({sms} SMs) — {file}</source>
        <translation>&lt;b&gt;{name}&lt;/b&gt; на {device} ({sms} SM) — {file}</translation>
    </message>
    <message>
        <location line="+4"/>
        <source>Synthetic: made from a simulation, not measured on a GPU.</source>
        <translation>Синтетическое: получено из симуляции, а не измерено на GPU.</translation>
    </message>
    <message>
        <location line="+4"/>
        <source>problem: {p}</source>
        <translation>проблема: {p}</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>time axis: {a}</source>
        <translation>ось времени: {a}</translation>
    </message>
    <message>
        <location line="+23"/>
        <source>Duration: simulated {e} against measured — {word}.</source>
        <translation>Длительность: симуляция {e} относительно измерения — {word}.</translation>
    </message>
    <message>
        <location line="+8"/>
        <source>The simulation of the scenario shown is still running (or its input is invalid).</source>
        <translation>Симуляция показанного сценария ещё идёт (или его ввод некорректен).</translation>
    </message>
    <message>
        <location line="+6"/>
        <source>GPU</source>
        <translation>GPU</translation>
    </message>
    <message>
        <location line="+0"/>
        <source>grid</source>
        <translation>сетка</translation>
    </message>
    <message>
        <location line="+0"/>
        <source>block</source>
        <translation>блок</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>registers/thread</source>
        <translation>регистров/поток</translation>
    </message>
    <message>
        <location line="+0"/>
        <source>static shared</source>
        <translation>статич. разделяемая</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>dynamic shared</source>
        <translation>динамич. разделяемая</translation>
    </message>
    <message>
        <location line="+0"/>
        <source>carveout</source>
        <translation>carveout</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>barriers</source>
        <translation>барьеры</translation>
    </message>
    <message>
        <location line="+0"/>
        <source>workload</source>
        <translation>нагрузка</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>{name} {a} vs {b}</source>
        <translation>{name}: {a} против {b}</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>The simulation differs from what ran on the GPU: {parts}.</source>
        <translation>Симуляция отличается от того, что выполнялось на GPU: {parts}.</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>Re-simulate for a like-for-like comparison.</source>
        <translation>Пересимулируйте, чтобы сравнивать одинаковое.</translation>
    </message>
    <message>
        <location line="+8"/>
        <source>&lt;b&gt;Calibration&lt;/b&gt; ({count} measurement(s), {sims} simulations): RMS error &lt;b&gt;{before}&lt;/b&gt; → &lt;b&gt;{after}&lt;/b&gt;</source>
        <translation>&lt;b&gt;Калибровка&lt;/b&gt; (измерений: {count}, симуляций: {sims}): среднеквадратичная ошибка &lt;b&gt;{before}&lt;/b&gt; → &lt;b&gt;{after}&lt;/b&gt;</translation>
    </message>
    <message>
        <location line="+4"/>
        <source>DRAM latency {lb} → {la} cycles; bandwidth {bb} → {ba} GB/s</source>
        <translation>Задержка DRAM, такты: {lb} → {la}; пропускная способность, ГБ/с: {bb} → {ba}</translation>
    </message>
    <message>
        <location line="+5"/>
        <source>{name}: kernel {kb} → {ka}, mean block {bb} → {ba}</source>
        <translation>{name}: ядро {kb} → {ka}, средний блок {bb} → {ba}</translation>
    </message>
</context>
<context>
    <name>MemoryLevelTexts</name>
    <message>
        <location filename="../../explorer/texts/names.py" line="+6"/>
        <source>Registers</source>
        <translation>Регистры</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Shared memory</source>
        <translation>Разделяемая память</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>L1 data cache</source>
        <translation>Кэш данных L1</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>L2 cache</source>
        <translation>Кэш L2</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Device memory ({kind})</source>
        <translation>Память устройства ({kind})</translation>
    </message>
</context>
<context>
    <name>MemoryPage</name>
    <message>
        <location filename="../../explorer/gui/gemm/memory_page.py" line="+534"/>
        <source>GP&amp;U:</source>
        <translation>GP&amp;U:</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>Follows the Explorer&apos;s GPU whenever it finishes a simulation.</source>
        <translation>Переключается на GPU обозревателя после каждой его симуляции.</translation>
    </message>
    <message>
        <location line="+61"/>
        <source>This simulation: nothing simulated yet in the Explorer.</source>
        <translation>Эта симуляция: в обозревателе ещё ничего не симулировалось.</translation>
    </message>
    <message>
        <location line="+5"/>
        <source>&lt;b&gt;This simulation&lt;/b&gt; (the Explorer&apos;s “{name}” on the {gpu}: {cycles} cycles, {t}): L1 and L2 count the bytes they served (the sectors that hit: loads, and stores written into L2), HBM the bytes read from and written to device memory ({bw} of {peak}), shared memory every shared load and store. The rates are the Explorer&apos;s Speed-of-Light figures: each unit&apos;s throughput and its share of the peak (L1&apos;s and L2&apos;s count every byte that crosses them, hits and misses).</source>
        <translation>&lt;b&gt;Эта симуляция&lt;/b&gt; («{name}» из обозревателя на {gpu}: тактов {cycles}, {t}): L1 и L2 учитывают байты, которые они обслужили (секторы с попаданием: загрузки и записи, принятые в L2), HBM — байты, прочитанные из памяти устройства и записанные в неё ({bw} из {peak}), разделяемая память — каждую загрузку и сохранение в неё. Скорости — те же, что на панели «Скорость света» в обозревателе: пропускная способность каждого узла и её доля от пика (для L1 и L2 — все байты, что проходят через них, и попадания, и промахи).</translation>
    </message>
    <message>
        <location line="+5"/>
        <source>scenario</source>
        <translation>сценарий</translation>
    </message>
    <message>
        <location line="+4"/>
        <source>L1 and L2 hits come from the addresses the kernel touches, through tags the size of each cache.</source>
        <translation>Попадания в L1 и L2 получаются из адресов, к которым обращается ядро, через теги размером с каждый кэш.</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>L1 and L2 hits are drawn from the scenario&apos;s hit rates: these accesses have no addresses the simulated caches could see.</source>
        <translation>Попадания в L1 и L2 разыгрываются по долям попаданий сценария: у этих обращений нет адресов, которые увидели бы моделируемые кэши.</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>(The hierarchy above is the {gpu}&apos;s, not the simulated GPU&apos;s.)</source>
        <translation>(Иерархия выше — для {gpu}, а не для симулированного GPU.)</translation>
    </message>
    <message>
        <location line="+5"/>
        <source>Memory hierarchy of the {gpu}</source>
        <translation>Иерархия памяти {gpu}</translation>
    </message>
    <message>
        <location line="+3"/>
        <source> · this simulation: HBM {hbm}, L2 {l2}, shared {sh}</source>
        <translation> · эта симуляция: HBM {hbm}, L2 {l2}, разделяемая {sh}</translation>
    </message>
</context>
<context>
    <name>MetricsPanel</name>
    <message>
        <location filename="../../explorer/gui/common/core_texts.py" line="+46"/>
        <source>warp slots</source>
        <translation>слоты варпов</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>registers</source>
        <translation>регистры</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>shared memory</source>
        <translation>разделяемая память</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>block slots</source>
        <translation>слоты блоков</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>named barriers</source>
        <translation>именованные барьеры</translation>
    </message>
</context>
<context>
    <name>NowBox</name>
    <message>
        <location filename="../../explorer/gui/explore/metrics.py" line="+9"/>
        <source>Right now</source>
        <translation>Прямо сейчас</translation>
    </message>
    <message>
        <location line="+15"/>
        <source>Resident</source>
        <translation>Размещено</translation>
    </message>
    <message>
        <location line="+0"/>
        <source>warps on the SMs</source>
        <translation>варпы на SM</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Ready</source>
        <translation>Готово</translation>
    </message>
    <message>
        <location line="+0"/>
        <source>eligible: could issue this cycle</source>
        <translation>eligible: могут выдать инструкцию в этом такте</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Issued</source>
        <translation>Выдано</translation>
    </message>
    <message>
        <location line="+0"/>
        <source>this cycle</source>
        <translation>в этом такте</translation>
    </message>
    <message>
        <location line="-3"/>
        <source>Unfinished</source>
        <translation>Осталось</translation>
    </message>
    <message>
        <location line="+13"/>
        <source>Launched warps that have not finished: resident ones plus those still waiting for a place on an SM; it starts at every launched warp and falls to 0.</source>
        <translation>Запущенные варпы, которые ещё не завершились: размещённые и те, что ещё ждут места на SM; счёт начинается со всех запущенных варпов и падает до 0.</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>Warps placed on an SM, holding a warp slot, registers and shared memory.</source>
        <translation>Варпы, размещённые на SM: занимают слот варпа, регистры и разделяемую память.</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Resident warps whose next instruction could issue this cycle; each scheduler picks one of its eligible warps.</source>
        <translation>Размещённые варпы, чья следующая инструкция может быть выдана в этом такте; каждый планировщик выбирает один из своих готовых варпов.</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>Warp-instructions issued this cycle: at most one per scheduler.</source>
        <translation>Инструкции варпов, выданные в этом такте: не больше одной на планировщик.</translation>
    </message>
    <message>
        <location line="+38"/>
        <source>What the resident warps are doing:</source>
        <translation>Чем заняты размещённые варпы:</translation>
    </message>
    <message>
        <location line="+14"/>
        <source>Cycle {c} of {total} ({us} µs)</source>
        <translation>Такт {c} из {total} ({us} мкс)</translation>
    </message>
    <message>
        <location line="+6"/>
        <source>of {n} launched warps</source>
        <translation>из {n} запущенных варпов</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>on the SMs (of {slots} slots)</source>
        <translation>на SM (из {slots} слотов)</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>this cycle (max {n})</source>
        <translation>в этом такте (макс. {n})</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>warps</source>
        <translation>варпов</translation>
    </message>
    <message>
        <location line="+6"/>
        <source>No warp is resident at this cycle.</source>
        <translation>В этом такте нет размещённых варпов.</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>{ready} of {resident} resident warps are ready.</source>
        <translation>Готовы {ready} из {resident} размещённых варпов.</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>{k} {name}</source>
        <translation>{name} — {k}</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>The others wait: {items}.</source>
        <translation>Остальные ждут: {items}.</translation>
    </message>
    <message>
        <location line="+10"/>
        <source>Every warp has left; the kernel ends once L2 has taken its last stores, {n} cycles from now.</source>
        <translation>Все варпы ушли; ядро завершится, когда L2 примет его последние записи, — через {n} тактов.</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>The kernel has finished.</source>
        <translation>Ядро завершилось.</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>Every unfinished warp is resident. At most {cap} fit at once ({blocks} per SM, limited by {limit}).</source>
        <translation>Все незавершённые варпы размещены. Вмещается до {cap} ({blocks} на SM; ограничение: {limit}).</translation>
    </message>
    <message>
        <location line="+2"/>
        <location line="+3"/>
        <source>block|blocks</source>
        <translation>блок|блока|блоков</translation>
    </message>
    <message>
        <location line="-2"/>
        <source>{w} launched warps are not resident yet: they wait for a free place (at most {cap} fit at once: {blocks} per SM, limited by {limit}) or are being launched.</source>
        <translation>Ещё не размещено запущенных варпов: {w} — ждут места (вмещается до {cap}: {blocks} на SM, ограничение: {limit}) или запускаются.</translation>
    </message>
</context>
<context>
    <name>OccupancyAdvice</name>
    <message>
        <location filename="../../explorer/gui/occupancy/advice.py" line="+81"/>
        <source>What limits occupancy</source>
        <translation>Что ограничивает заполняемость</translation>
    </message>
    <message>
        <location line="+5"/>
        <source>The block size with the most active threads per SM for these registers and shared memory (the rule of cudaOccupancyMaxPotentialBlockSize).</source>
        <translation>Размер блока с наибольшим числом активных потоков на SM при этих регистрах и разделяемой памяти (правило cudaOccupancyMaxPotentialBlockSize).</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>Use &amp;it</source>
        <translation>Приме&amp;нить</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Put the best block size into the threads-per-block field.</source>
        <translation>Подставить лучший размер блока в поле «Потоков на блок».</translation>
    </message>
    <message>
        <location line="+28"/>
        <source>Best block size: your {current} threads already reach the most (occupancy {occ}); {threads} ties (NVIDIA&apos;s configurator picks the largest of equals).</source>
        <translation>Лучший размер блока: ваши {current} потоков уже дают максимум (заполняемость {occ}); {threads} — столько же (конфигуратор NVIDIA выбирает наибольший из равных).</translation>
    </message>
    <message>
        <location line="+5"/>
        <source>Best block size: {threads} threads (occupancy {occ}, blocks per SM: {blocks}).</source>
        <translation>Лучший размер блока (потоков): {threads} — заполняемость {occ}, блоков на SM: {blocks}.</translation>
    </message>
    <message>
        <location line="+5"/>
        <source>No block size fits with these registers and shared memory.</source>
        <translation>При таких регистрах и разделяемой памяти не подходит ни один размер блока.</translation>
    </message>
</context>
<context>
    <name>OccupancyGraphs</name>
    <message>
        <location filename="../../explorer/gui/occupancy/graphs.py" line="+54"/>
        <source>Occupancy (%)</source>
        <translation>Заполняемость (%)</translation>
    </message>
    <message>
        <location line="+10"/>
        <source>KB</source>
        <translation>КБ</translation>
    </message>
    <message>
        <location line="+26"/>
        <source>Varying block size</source>
        <translation>Меняем размер блока</translation>
    </message>
    <message>
        <location line="+0"/>
        <source>Threads per block</source>
        <translation>Потоков на блок</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Varying register count</source>
        <translation>Меняем число регистров</translation>
    </message>
    <message>
        <location line="+0"/>
        <source>Registers per thread</source>
        <translation>Регистров на поток</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>Varying shared memory</source>
        <translation>Меняем разделяемую память</translation>
    </message>
    <message>
        <location line="+0"/>
        <source>Shared memory per block (KB)</source>
        <translation>Разделяемая память на блок (КБ)</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>Occupancy for every block size, the other inputs unchanged.</source>
        <translation>Заполняемость для каждого размера блока при прочих неизменных параметрах.</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Occupancy for every register count, the other inputs unchanged.</source>
        <translation>Заполняемость для каждого числа регистров при прочих неизменных параметрах.</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>Occupancy for every shared-memory size per block (static + dynamic), the other inputs unchanged.</source>
        <translation>Заполняемость для каждого объёма разделяемой памяти на блок (статическая + динамическая) при прочих неизменных параметрах.</translation>
    </message>
</context>
<context>
    <name>OccupancyHints</name>
    <message>
        <location filename="../../explorer/gui/occupancy/advice.py" line="-104"/>
        <source>Every warp slot is in use: {state}.</source>
        <translation>Заняты все слоты варпов: {state}.</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Registers are at the edge: {regs} or more per thread would drop occupancy.</source>
        <translation>Регистры на пределе: при {regs} и более регистрах на поток заполняемость упадёт.</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>Up to {regs} registers per thread keep full occupancy.</source>
        <translation>Вплоть до {regs} регистров на поток заполняемость остаётся полной.</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>{regs} registers per thread is above the hardware maximum of {limit}: the kernel cannot launch.</source>
        <translation>Регистров на поток: {regs} — это больше аппаратного максимума {limit}: ядро не запустится.</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>Registers limit you to {state}. With at most {regs} registers per thread, {better} would fit.</source>
        <translation>Регистры ограничивают заполняемость: {state}. Если регистров на поток не больше {regs}, будет: {better}.</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>Registers limit you to {state}; fewer registers alone would not help, another limit binds too.</source>
        <translation>Регистры ограничивают заполняемость: {state}; одно лишь уменьшение числа регистров не поможет — действует и другое ограничение.</translation>
    </message>
    <message>
        <location line="+4"/>
        <source>The block needs {bytes} bytes of shared memory (with {reserved} reserved), above the per-block limit of {limit}: the kernel cannot launch.</source>
        <translation>Блоку нужно {bytes} Б разделяемой памяти (включая {reserved} Б резерва) — больше предела на блок {limit}: ядро не запустится.</translation>
    </message>
    <message>
        <location line="+4"/>
        <source>Shared memory limits you to {state}.</source>
        <translation>Разделяемая память ограничивает заполняемость: {state}.</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>The carveout of {carveout}% leaves {kb} KB; 100% would allow {better}.</source>
        <translation>Доля {carveout}% под разделяемую память оставляет {kb} КБ; при 100% будет: {better}.</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>With at most {bytes} bytes per block, {better} would fit.</source>
        <translation>Если на блок не больше {bytes} Б, будет: {better}.</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>{threads} threads per block is above the limit of {limit}: the kernel cannot launch.</source>
        <translation>Потоков на блок: {threads} — это больше предела {limit}: ядро не запустится.</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>Blocks of {warps} warps leave {empty} of {max} warp slots empty ({state}).</source>
        <translation>При {warps} варпах на блок пустуют {empty} из {max} слотов варпов ({state}).</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>Blocks of {threads} threads would reach {pct}%.</source>
        <translation>При {threads} потоках на блок заполняемость была бы {pct}%.</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>An SM holds at most {limit} blocks: {state}.</source>
        <translation>SM вмещает не больше {limit} блоков: {state}.</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>Blocks of at least {threads} threads could fill every warp slot.</source>
        <translation>Блоки не меньше {threads} потоков могли бы занять все слоты варпов.</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>Named barriers limit you to {state}: the SM has {total} and each block uses {barriers}.</source>
        <translation>Именованные барьеры ограничивают заполняемость ({state}): на SM их {total}, а каждый блок использует {barriers}.</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>{blocks} blocks per SM ({warps} of {max} warps, {pct}%)</source>
        <translation>на SM блоков — {blocks} (варпов {warps} из {max}, {pct}%)</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>1 block per SM ({warps} of {max} warps, {pct}%)</source>
        <translation>на SM 1 блок (варпов {warps} из {max}, {pct}%)</translation>
    </message>
</context>
<context>
    <name>OccupancyInputs</name>
    <message>
        <location filename="../../explorer/gui/occupancy/inputs.py" line="+28"/>
        <source>Kernel launch</source>
        <translation>Запуск ядра</translation>
    </message>
    <message>
        <location line="+22"/>
        <source>The GPU whose per-SM limits the calculator applies.</source>
        <translation>GPU, ограничения SM которого применяет калькулятор.</translation>
    </message>
    <message>
        <location line="+12"/>
        <source>&amp;Threads per block:</source>
        <translation>По&amp;токов на блок:</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Threads in one block (blockDim.x × y × z); the SM allocates whole warps of 32.</source>
        <translation>Потоков в одном блоке (blockDim.x × y × z); SM выделяет целые варпы по 32 потока.</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>&amp;Registers per thread:</source>
        <translation>&amp;Регистров на поток:</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Registers the compiler gave each thread (nvcc -Xptxas -v, or the compile command).</source>
        <translation>Сколько регистров компилятор выделил каждому потоку (nvcc -Xptxas -v или команда компиляции).</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>&amp;Static shared memory (bytes):</source>
        <translation>Ст&amp;атич. разделяемая память (Б):</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Bytes of __shared__ arrays declared in the kernel, fixed at compile time.</source>
        <translation>Байты массивов __shared__, объявленных в ядре; известны при компиляции.</translation>
    </message>
    <message>
        <location line="+11"/>
        <source>B&amp;arriers per block:</source>
        <translation>&amp;Барьеров на блок:</translation>
    </message>
    <message>
        <location line="-37"/>
        <source>GP&amp;U:</source>
        <translation>GP&amp;U:</translation>
    </message>
    <message>
        <location line="+29"/>
        <source>D&amp;ynamic shared memory (bytes):</source>
        <translation>&amp;Динамич. разделяемая память (Б):</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Bytes passed as the third launch parameter &lt;&lt;&lt;grid, block, bytes&gt;&gt;&gt;.</source>
        <translation>Байты, переданные третьим параметром запуска &lt;&lt;&lt;grid, block, bytes&gt;&gt;&gt;.</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>&amp;Carveout (%):</source>
        <translation>Доля L1 под раздел&amp;яемую (%):</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Preferred share of L1/shared storage used as shared memory, 0–100; −1 lets the driver choose.</source>
        <translation>Желаемая доля памяти L1/shared, отводимая под разделяемую память, 0–100; −1 — выбирает драйвер.</translation>
    </message>
    <message>
        <location line="+4"/>
        <source>Named barriers the kernel uses (1 for __syncthreads); limits blocks only on CC 9.0 and newer.</source>
        <translation>Именованные барьеры ядра (1 для __syncthreads); ограничивают число блоков только на CC 9.0 и новее.</translation>
    </message>
    <message>
        <location line="+5"/>
        <source>{full}
Compute capability {cc} · {sms} SMs · {warps} warps per SM</source>
        <translation>{full}
Compute capability {cc} · {sms} SM · варпов на SM: {warps}</translation>
    </message>
    <message>
        <location line="+12"/>
        <source>{full} · CC {cc} · {sms} SMs</source>
        <translation>{full} · CC {cc} · {sms} SM</translation>
    </message>
    <message>
        <location line="+23"/>
        <source>enter a whole number</source>
        <translation>введите целое число</translation>
    </message>
</context>
<context>
    <name>OccupancyPanel</name>
    <message>
        <location filename="../../explorer/gui/occupancy/panel.py" line="+84"/>
        <source>Invalid inputs: {count}. Showing the last valid result.</source>
        <translation>Неверных полей: {count}. Показан последний корректный результат.</translation>
    </message>
    <message>
        <location line="+36"/>
        <source>{gpu}: occupancy {occ}, warps per SM {warps}/{max}, blocks per SM {blocks}; limited by {limiters}</source>
        <translation>{gpu}: заполняемость {occ}, варпов на SM {warps}/{max}, блоков на SM {blocks}; ограничение: {limiters}</translation>
    </message>
</context>
<context>
    <name>OccupancyResultView</name>
    <message>
        <location filename="../../explorer/gui/occupancy/result.py" line="+23"/>
        <source>Warp slots</source>
        <translation>Слоты варпов</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Registers</source>
        <translation>Регистры</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Shared memory</source>
        <translation>Разделяемая память</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Block slots</source>
        <translation>Слоты блоков</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Named barriers</source>
        <translation>Именованные барьеры</translation>
    </message>
    <message>
        <location line="+6"/>
        <source>Blocks whose warps fit in the SM&apos;s warp slots.</source>
        <translation>Сколько блоков помещается в слоты варпов SM.</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>Blocks whose registers fit in the SM&apos;s register file.</source>
        <translation>Сколько блоков помещается в регистровый файл SM.</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>Blocks whose shared memory fits in the SM&apos;s shared-memory carveout.</source>
        <translation>Сколько блоков помещается в разделяемую память SM при данном carveout.</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>The most blocks an SM can hold, however small.</source>
        <translation>Наибольшее число блоков на SM, какими бы маленькими они ни были.</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>Blocks whose named barriers fit in the SM&apos;s barrier slots (CC 9.0+).</source>
        <translation>Сколько блоков помещается в слоты именованных барьеров SM (CC 9.0+).</translation>
    </message>
    <message>
        <location line="+10"/>
        <source>Theoretical occupancy</source>
        <translation>Теоретическая заполняемость</translation>
    </message>
    <message>
        <location line="+4"/>
        <source>Active warps per SM ÷ the most warps an SM can hold.</source>
        <translation>Активные варпы на SM ÷ наибольшее число варпов, которое вмещает SM.</translation>
    </message>
    <message>
        <location line="+4"/>
        <source>Showing the last valid result: fix the marked input.</source>
        <translation>Показан последний корректный результат: исправьте отмеченное поле.</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>Blocks per SM each resource allows:</source>
        <translation>Сколько блоков на SM допускает каждый ресурс:</translation>
    </message>
    <message>
        <location line="+56"/>
        <source>Registers per block:</source>
        <translation>Регистров на блок:</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Registers allocated to one block: per warp, rounded up to the allocation unit.</source>
        <translation>Регистры, выделенные одному блоку: по варпам, с округлением вверх до единицы выделения.</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Shared memory per block:</source>
        <translation>Разделяемой памяти на блок:</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Static + dynamic + the per-block reserve, rounded up to the allocation unit.</source>
        <translation>Статическая + динамическая + резерв на блок, с округлением вверх до единицы выделения.</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Per-block limit:</source>
        <translation>Предел на блок:</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>The most shared memory one block may allocate (48 KB, or the opt-in maximum), plus the reserve.</source>
        <translation>Наибольший объём разделяемой памяти, который может выделить один блок (48 КБ или максимум по opt-in), плюс резерв.</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Shared memory per SM:</source>
        <translation>Разделяемой памяти на SM:</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>The SM&apos;s shared-memory size under this carveout, raised if one block needs more.</source>
        <translation>Объём разделяемой памяти SM при этом carveout; увеличивается, если одному блоку нужно больше.</translation>
    </message>
    <message>
        <location line="+10"/>
        <source>Active warps per SM: {warps} of {max}
Active blocks per SM: {blocks}</source>
        <translation>Активных варпов на SM: {warps} из {max}
Активных блоков на SM: {blocks}</translation>
    </message>
    <message>
        <location line="+7"/>
        <source>no limit</source>
        <translation>без ограничения</translation>
    </message>
    <message>
        <location line="+6"/>
        <source>◀ limiter</source>
        <translation>◀ ограничитель</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>limiter</source>
        <translation>ограничитель</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>{regs} ({warp} per warp)</source>
        <translation>{regs} ({warp} на варп)</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>{bytes} B (incl. {reserved} B reserved)</source>
        <translation>{bytes} Б (вкл. {reserved} Б резерва)</translation>
    </message>
    <message>
        <location line="+4"/>
        <source>{bytes} B</source>
        <translation>{bytes} Б</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>{kb} KB</source>
        <translation>{kb} КБ</translation>
    </message>
</context>
<context>
    <name>PictureDialog</name>
    <message>
        <location filename="../../explorer/gui/files/export_menu.py" line="+150"/>
        <source>Export Picture</source>
        <translation>Экспорт изображения</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>PNG image</source>
        <translation>Изображение PNG</translation>
    </message>
    <message>
        <location line="+0"/>
        <source>SVG drawing</source>
        <translation>Рисунок SVG</translation>
    </message>
    <message>
        <location line="+0"/>
        <source>PDF document</source>
        <translation>Документ PDF</translation>
    </message>
    <message>
        <location line="+4"/>
        <location line="+14"/>
        <source>{s}× ({w} × {h} pixels)</source>
        <translation>{s}× ({w} × {h} пикс.)</translation>
    </message>
    <message>
        <location line="-12"/>
        <source>&amp;Resolution:</source>
        <translation>&amp;Разрешение:</translation>
    </message>
    <message>
        <location line="+29"/>
        <source>Cannot write {path}: {err}</source>
        <translation>Не удаётся записать {path}: {err}</translation>
    </message>
</context>
<context>
    <name>PipelineView</name>
    <message>
        <location filename="../../explorer/gui/gemm/pipeline_view.py" line="+245"/>
        <source>The main loop&apos;s pipeline</source>
        <translation>Конвейер основного цикла</translation>
    </message>
    <message>
        <location line="+6"/>
        <source>How the operands reach the math units. Filled: a unit that moves or computes · outlined: where the data sits. Hover a box for its numbers.</source>
        <translation>Как операнды доходят до вычислительных узлов. Залитые — узлы, которые перемещают или считают · в рамке — где лежат данные. Наведите курсор на узел, чтобы увидеть числа.</translation>
    </message>
    <message>
        <location line="+23"/>
        <source>global memory</source>
        <translation>глобальная память</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>A and B, through L2</source>
        <translation>A и B, через L2</translation>
    </message>
    <message>
        <location line="+0"/>
        <source>{hit}% L2 hits</source>
        <translation>{hit}% попаданий в L2</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>HBM → L2: {hbm}; L2 → shared memory: {l2}</source>
        <translation>HBM → L2: {hbm}; L2 → разделяемая память: {l2}</translation>
    </message>
    <message>
        <location line="+8"/>
        <source>TMA bulk tensor copies (cp.async.bulk.tensor), one per operand per stage, each completing on the stage&apos;s mbarrier</source>
        <translation>Массовые тензорные копии TMA (cp.async.bulk.tensor), по одной на операнд на стадию, каждая завершается на mbarrier своей стадии</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>cp.async: 16 B per thread from global to shared memory, not through registers</source>
        <translation>cp.async: по 16 Б на поток из глобальной памяти в разделяемую, не через регистры</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>LDG + STS: every thread loads into registers, then stores to shared memory</source>
        <translation>LDG + STS: каждый поток загружает данные в регистры, затем записывает в разделяемую память</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>{copy}. L2 → shared memory: {b} over the whole GEMM.</source>
        <translation>{copy}. L2 → разделяемая память: {b} за весь GEMM.</translation>
    </message>
    <message>
        <location line="+6"/>
        <source>B multicast to {n} CTAs</source>
        <translation>B рассылается (multicast) {n} CTA</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>A multicast to {n} CTAs</source>
        <translation>A рассылается (multicast) {n} CTA</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>{n} producer warp, no per-thread loads</source>
        <translation>варп-производитель: {n}, без загрузок по потокам</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>a bulk copy per operand per stage: {n} in all</source>
        <translation>по копии на операнд на стадию, всего {n}</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>cluster {c}: {m}</source>
        <translation>кластер {c}: {m}</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>no cluster multicast</source>
        <translation>без рассылки в кластере</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>all {n} warps copy</source>
        <translation>копируют все варпы ({n})</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>16 B per thread, asynchronous</source>
        <translation>по 16 Б на поток, асинхронно</translation>
    </message>
    <message>
        <location line="+0"/>
        <source>through registers</source>
        <translation>через регистры</translation>
    </message>
    <message>
        <location line="+5"/>
        <source>{s} stages × {b} (A + B)</source>
        <translation>стадий: {s} × {b} (A + B)</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>+ {b} epilogue staging</source>
        <translation>+ {b} на буфер эпилога</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>{total} per CTA. Read toward the math units: {rd} over the whole GEMM.</source>
        <translation>{total} на CTA. Прочитано для вычислительных узлов: {rd} за весь GEMM.</translation>
    </message>
    <message>
        <location line="+2"/>
        <location line="+18"/>
        <source>shared memory</source>
        <translation>разделяемая память</translation>
    </message>
    <message>
        <location line="-12"/>
        <source>A and B fragments</source>
        <translation>фрагменты A и B</translation>
    </message>
    <message>
        <location line="+0"/>
        <location line="+43"/>
        <source>{n} registers per thread</source>
        <translation>{n} регистров на поток</translation>
    </message>
    <message>
        <location line="-42"/>
        <source>Every warp loads its fragments of A and B from shared memory into registers before each MMA step.</source>
        <translation>Перед каждым шагом MMA каждый варп загружает свои фрагменты A и B из разделяемой памяти в регистры.</translation>
    </message>
    <message>
        <location line="+8"/>
        <source>{g} consumer warpgroup(s), {s}</source>
        <translation>варп-групп-потребителей: {g}, {s}</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>A from {a}, B from shared memory</source>
        <translation>A — {a}, B — разделяемая память</translation>
    </message>
    <message>
        <location line="+1"/>
        <location line="+26"/>
        <source>registers</source>
        <translation>регистры</translation>
    </message>
    <message>
        <location line="-24"/>
        <source>one thread issues for the whole CTA</source>
        <translation>один поток выдаёт для всего CTA</translation>
    </message>
    <message>
        <location line="+0"/>
        <source>A and B from shared memory</source>
        <translation>A и B из разделяемой памяти</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>{w} warps, {tm}×{tn} outputs per thread</source>
        <translation>варпов: {w}, {tm}×{tn} выходов на поток</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>{w} warps, {wm}×{wn} each</source>
        <translation>варпов: {w}, по {wm}×{wn}</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>{instr}: {n} instructions over the whole GEMM.</source>
        <translation>{instr}: инструкций за весь GEMM: {n}.</translation>
    </message>
    <message>
        <location line="+8"/>
        <source>{n} FP32 accumulators per thread</source>
        <translation>{n} аккумуляторов FP32 на поток</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>setmaxnreg: {c} per consumer, {p} per producer thread</source>
        <translation>setmaxnreg: {c} потребителю, {p} производителю</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>Launched with {n} registers per thread; setmaxnreg moves registers from the producer warpgroup to the consumers.</source>
        <translation>Запуск с {n} регистрами на поток; setmaxnreg передаёт регистры от варп-группы-производителя потребителям.</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>{n} accumulators per thread</source>
        <translation>{n} аккумуляторов на поток</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>{n} registers per thread in all</source>
        <translation>всего {n} регистров на поток</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Registers per thread = accumulators + fragments + the rest (an estimate).</source>
        <translation>Регистры на поток = аккумуляторы + фрагменты + прочее (оценка).</translation>
    </message>
    <message>
        <location line="+4"/>
        <source>Tensor Memory</source>
        <translation>тензорная память</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>FP32 accumulators, not in registers</source>
        <translation>аккумуляторы FP32, не в регистрах</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>The epilogue warps read the accumulators with tcgen05.ld.</source>
        <translation>Варпы эпилога читают аккумуляторы через tcgen05.ld.</translation>
    </message>
    <message>
        <location line="+4"/>
        <source>epilogue</source>
        <translation>эпилог</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>C tile → global memory</source>
        <translation>плитка C → глобальная память</translation>
    </message>
    <message>
        <location line="+0"/>
        <source>{t} not hidden</source>
        <translation>{t} не скрыто</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>The accumulators are converted, staged in shared memory and stored; {t} of it is not hidden behind the main loop.</source>
        <translation>Аккумуляторы преобразуются, складываются в разделяемую память и записываются; {t} из этого не скрыто за основным циклом.</translation>
    </message>
    <message>
        <location line="+8"/>
        <source>{s} schedule, persistent: {ctas} CTAs walk the {tiles} tiles</source>
        <translation>расписание: {s}, постоянное ядро: {ctas} CTA обходят {tiles} плиток</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>one CTA per tile ({tiles} CTAs)</source>
        <translation>по CTA на плитку (CTA: {tiles})</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>&lt;b&gt;Path: {path}&lt;/b&gt; · {instr} · {where}</source>
        <translation>&lt;b&gt;Путь: {path}&lt;/b&gt; · {instr} · {where}</translation>
    </message>
    <message>
        <location line="+6"/>
        <source>Warp specialization: {p} producer warp issues the TMA copies and {c} consumer warps ({g} warpgroups) issue the MMAs; the copies complete on mbarriers, so no thread waits at __syncthreads.</source>
        <translation>Специализация варпов: варп-производитель ({p}) выдаёт копии TMA, а варпы-потребители ({c}, {g} варп-группы) выдают MMA; копии завершаются на mbarrier, поэтому ни один поток не ждёт на __syncthreads.</translation>
    </message>
    <message>
        <location line="+5"/>
        <source>Warp specialization: one warp issues the TMA copies, one thread of the MMA warp issues the MMAs for the whole CTA, and {n} warps in all share the CTA&apos;s other work (epilogue, scheduling).</source>
        <translation>Специализация варпов: один варп выдаёт копии TMA, один поток варпа MMA выдаёт MMA для всего CTA, а всего {n} варпов делят остальную работу CTA (эпилог, планирование).</translation>
    </message>
    <message>
        <location line="+5"/>
        <source>Every one of the {n} warps copies its part of each stage, waits at the barrier, loads its fragments and computes: both operands pass through registers.</source>
        <translation>Каждый из {n} варпов копирует свою часть каждой стадии, ждёт на барьере, загружает свои фрагменты и считает: оба операнда проходят через регистры.</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>&lt;b&gt;Why {bound}:&lt;/b&gt; {reason}</source>
        <translation>&lt;b&gt;Почему ограничение — {bound}:&lt;/b&gt; {reason}</translation>
    </message>
    <message>
        <location line="+5"/>
        <source>Predicted {t} = the main loop&apos;s {m} + what it does not hide: pipeline fill {f}, epilogue {e}.</source>
        <translation>Прогноз {t} = основной цикл {m} + то, что он не скрывает: заполнение конвейера {f}, эпилог {e}.</translation>
    </message>
</context>
<context>
    <name>PrecisionPlot</name>
    <message>
        <location filename="../../explorer/gui/gemm/precision_view.py" line="+67"/>
        <source>K, the dot product&apos;s length (log scale)</source>
        <translation>K, длина скалярного произведения (лог. шкала)</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Error vs FP64, % (log)</source>
        <translation>Ошибка к FP64, % (лог.)</translation>
    </message>
</context>
<context>
    <name>PrecisionView</name>
    <message>
        <location line="+40"/>
        <source>The random values every dot product multiplies: random signs (typical of activations and weights) or all positive (the worst case for a short accumulator).</source>
        <translation>Случайные значения, которые перемножает каждое скалярное произведение: случайных знаков (как обычно у активаций и весов) или все положительные (худший случай для короткого аккумулятора).</translation>
    </message>
    <message>
        <location line="+6"/>
        <source>Inputs:</source>
        <translation>Входы:</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>How far dot products of K rounded inputs land from the exact (FP64) result: the RMS error over {n} random dot products, divided by their RMS size.</source>
        <translation>Насколько скалярные произведения K округлённых входов отстоят от точного результата (FP64): среднеквадратичная ошибка по {n} случайным произведениям, делённая на их среднеквадратичную величину.</translation>
    </message>
    <message>
        <location line="+8"/>
        <source>Each curve&apos;s relative error at the longest K, in per cent: fewer significant bits in the inputs, more error; the FP16 accumulator adds its own.</source>
        <translation>Относительная ошибка каждой кривой при наибольшем K, в процентах: меньше значащих битов во входах — больше ошибка; аккумулятор FP16 добавляет свою.</translation>
    </message>
    <message>
        <location line="+10"/>
        <source>Emulated: exact products summed one by one in K order. Tensor Cores add in their own order and width (Hopper&apos;s FP8 MMAs keep about 14 bits: DeepSeek-V3 report, 2024); not modelled here.</source>
        <translation>Эмуляция: точные произведения складываются по одному в порядке K. Тензорные ядра складывают в своём порядке и со своей разрядностью (MMA FP8 на Hopper сохраняют около 14 бит: отчёт DeepSeek-V3, 2024); здесь это не моделируется.</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>The FP8 curves assume a full FP32 accumulator: a lower bound on the hardware&apos;s error.</source>
        <translation>Кривые FP8 предполагают полный аккумулятор FP32: это нижняя граница ошибки железа.</translation>
    </message>
    <message>
        <location line="+43"/>
        <source>N(0, 1): random signs</source>
        <translation>N(0, 1): случайные знаки</translation>
    </message>
    <message>
        <location line="+0"/>
        <source>U[0, 1): all positive</source>
        <translation>U[0, 1): все положительные</translation>
    </message>
    <message>
        <location line="+4"/>
        <source>FP32</source>
        <translation>FP32</translation>
    </message>
    <message>
        <location line="+0"/>
        <source>TF32</source>
        <translation>TF32</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>BF16</source>
        <translation>BF16</translation>
    </message>
    <message>
        <location line="+0"/>
        <source>FP16</source>
        <translation>FP16</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>FP8 E4M3</source>
        <translation>FP8 E4M3</translation>
    </message>
    <message>
        <location line="+0"/>
        <source>FP8 E5M2</source>
        <translation>FP8 E5M2</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>FP16, FP16 sum</source>
        <translation>FP16, сумма в FP16</translation>
    </message>
    <message>
        <location line="+37"/>
        <source>{name}: {pct}%</source>
        <translation>{name}: {pct}%</translation>
    </message>
    <message>
        <location line="+7"/>
        <source>At K = {k} ({n} dot products), summed in FP32 unless marked: the FP16 sum of the same FP16 inputs is {times}× worse.</source>
        <translation>При K = {k} ({n} скалярных произведений), сумма в FP32, если не указано иное: сумма в FP16 тех же входов FP16 хуже в {times} раз.</translation>
    </message>
</context>
<context>
    <name>Presentation</name>
    <message>
        <location filename="../../explorer/gui/lessons/presentation.py" line="+112"/>
        <source>&amp;Presentation</source>
        <translation>&amp;Презентация</translation>
    </message>
    <message>
        <location line="+4"/>
        <source>&amp;Presentation mode</source>
        <translation>&amp;Режим презентации</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>Full screen, larger text and lines, only the views and the narration; Esc leaves.</source>
        <translation>Полный экран, крупнее текст и линии, только виды и пояснения; Esc — выход.</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>&amp;Full screen</source>
        <translation>&amp;Полный экран</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>Leave presentation mode</source>
        <translation>Выйти из режима презентации</translation>
    </message>
    <message>
        <location line="+8"/>
        <source>&amp;Scale in presentation mode</source>
        <translation>&amp;Масштаб в режиме презентации</translation>
    </message>
    <message>
        <location line="+5"/>
        <source>{pct}%</source>
        <translation>{pct}%</translation>
    </message>
    <message>
        <location line="+7"/>
        <source>&amp;Larger</source>
        <translation>&amp;Крупнее</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>S&amp;maller</source>
        <translation>&amp;Мельче</translation>
    </message>
    <message>
        <location line="+6"/>
        <source>Show only the &amp;views and the narration</source>
        <translation>Только &amp;виды и пояснения</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>In presentation mode, hide the menu bar, tabs, scenario panel, transport and status bar (their keys still work).</source>
        <translation>В режиме презентации скрыть меню, вкладки, панель сценария, панель воспроизведения и строку состояния (их клавиши продолжают работать).</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>&amp;High-contrast colours</source>
        <translation>&amp;Контрастные цвета</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>In presentation mode, pure black and white behind the views.</source>
        <translation>В режиме презентации — чисто чёрный и белый фон под видами.</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>Laser &amp;pointer on click</source>
        <translation>&amp;Лазерная указка по щелчку</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>In presentation mode, a click leaves a red dot that fades.</source>
        <translation>В режиме презентации щелчок оставляет гаснущую красную точку.</translation>
    </message>
    <message>
        <location line="+169"/>
        <source>{asked}% does not fit this screen: showing {shown}%.</source>
        <translation>{asked}% не помещается на этом экране: показано {shown}%.</translation>
    </message>
    <message>
        <location line="+51"/>
        <source>Presentation mode (F5) will show text and lines at {pct}%.</source>
        <translation>Режим презентации (F5) покажет текст и линии в масштабе {pct}%.</translation>
    </message>
</context>
<context>
    <name>ReportView</name>
    <message>
        <location filename="../../explorer/gui/kernel/report.py" line="+42"/>
        <source>Simulate the kernel: what it executed, how its memory accesses coalesced and what its buffers hold afterwards appear here.</source>
        <translation>Смоделируйте ядро: здесь появится, что оно выполнило, как объединялись его обращения к памяти и что лежит в его буферах после него.</translation>
    </message>
    <message>
        <location line="+5"/>
        <source>Executed:</source>
        <translation>Выполнено:</translation>
    </message>
    <message>
        <location line="+0"/>
        <source>Warp-instructions issued by all warps (one per warp and instruction), and the threads that were active in them.</source>
        <translation>Варп-инструкции всех варпов (по одной на варп и инструкцию) и активные в них потоки.</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>SIMT efficiency:</source>
        <translation>Эффективность SIMT:</translation>
    </message>
    <message>
        <location line="+0"/>
        <source>Average active lanes per issued warp-instruction ÷ 32 (Nsight Compute&apos;s average active threads per warp): below 100% when warps diverge or a block&apos;s last warp is partial.</source>
        <translation>Среднее число активных линий на выданную варп-инструкцию ÷ 32 (average active threads per warp в Nsight Compute): меньше 100%, когда варпы расходятся или последний варп блока неполный.</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>Memory:</source>
        <translation>Память:</translation>
    </message>
    <message>
        <location line="+0"/>
        <source>Global and local accesses: 32-byte sectors per request (4 is a coalesced warp of 4-byte loads); shared: bank conflicts (extra wavefronts).</source>
        <translation>Глобальные и локальные обращения: 32-байтовых секторов на запрос (4 — объединённый варп 4-байтовых загрузок); разделяемая память: конфликты банков (лишние волновые фронты).</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>Occupancy:</source>
        <translation>Заполняемость:</translation>
    </message>
    <message>
        <location line="+0"/>
        <source>Theoretical occupancy of this launch with the compiled kernel&apos;s registers and shared memory.</source>
        <translation>Теоретическая заполняемость этого запуска с регистрами и разделяемой памятью скомпилированного ядра.</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>Timing:</source>
        <translation>Время:</translation>
    </message>
    <message>
        <location line="+0"/>
        <source>Cycles and kernel time from the timing engine (the Explorer tab shows the run).</source>
        <translation>Такты и время ядра от модели времени (запуск показан на вкладке Обозреватель).</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>On this machine:</source>
        <translation>На этой машине:</translation>
    </message>
    <message>
        <location line="+0"/>
        <source>How long the functional execution took here (not a GPU time).</source>
        <translation>Сколько длилось функциональное выполнение здесь (это не время GPU).</translation>
    </message>
    <message>
        <location line="+9"/>
        <source>Buffer</source>
        <translation>Буфер</translation>
    </message>
    <message>
        <location line="+0"/>
        <source>Elements</source>
        <translation>Элементы</translation>
    </message>
    <message>
        <location line="+0"/>
        <source>Changed</source>
        <translation>Изменено</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Range after</source>
        <translation>Диапазон после</translation>
    </message>
    <message>
        <location line="+0"/>
        <source>First values after</source>
        <translation>Первые значения после</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>First values before</source>
        <translation>Первые значения до</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Each buffer argument after the kernel ran: how many elements it changed, their range, and its first elements after and before.</source>
        <translation>Каждый буфер-аргумент после выполнения ядра: сколько элементов изменилось, их диапазон и первые элементы после и до.</translation>
    </message>
    <message>
        <location line="+8"/>
        <source>Show in the Explorer</source>
        <translation>Показать в Обозревателе</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>The Explorer tab holds this kernel&apos;s scenario (File &gt; Save Scenario saves it).</source>
        <translation>Вкладка Обозреватель содержит сценарий этого ядра (Файл &gt; Сохранить сценарий сохраняет его).</translation>
    </message>
    <message>
        <location line="+7"/>
        <source>&lt;b&gt;Buffers&lt;/b&gt;</source>
        <translation>&lt;b&gt;Буферы&lt;/b&gt;</translation>
    </message>
    <message>
        <location line="+22"/>
        <source>{kernel} from {file} on {gpu} ({arch}): grid {grid} × block {block}</source>
        <translation>{kernel} из {file} на {gpu} ({arch}): сетка {grid} × блок {block}</translation>
    </message>
    <message>
        <location line="+4"/>
        <source>{wi} warp-instructions ({per} per warp), {ti} thread-instructions</source>
        <translation>варп-инструкций: {wi} ({per} на варп), инструкций потоков: {ti}</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>{eff} (predicated on: {on})</source>
        <translation>{eff} (с истинным предикатом: {on})</translation>
    </message>
    <message>
        <location line="+4"/>
        <source>{occ} ({blocks} blocks per SM; limited by {lim})</source>
        <translation>{occ} ({blocks} блоков на SM; ограничение: {lim})</translation>
    </message>
    <message>
        <location line="+4"/>
        <source>waiting for the Explorer…</source>
        <translation>ждём Обозреватель…</translation>
    </message>
    <message>
        <location line="+15"/>
        <source>under the clock&apos;s resolution</source>
        <translation>меньше разрешения часов</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>{time} ({rate} warp-instructions/s)</source>
        <translation>{time} ({rate} варп-инструкций/с)</translation>
    </message>
    <message>
        <location line="+5"/>
        <source>no memory instructions</source>
        <translation>нет инструкций памяти</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>global loads</source>
        <translation>глобальные загрузки</translation>
    </message>
    <message>
        <location line="+0"/>
        <source>global stores</source>
        <translation>глобальные записи</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>global atomics</source>
        <translation>глобальные атомарные</translation>
    </message>
    <message>
        <location line="+0"/>
        <source>local loads</source>
        <translation>локальные загрузки</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>local stores</source>
        <translation>локальные записи</translation>
    </message>
    <message>
        <location line="+0"/>
        <source>shared loads</source>
        <translation>загрузки из разделяемой</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>shared stores</source>
        <translation>записи в разделяемую</translation>
    </message>
    <message>
        <location line="+0"/>
        <source>shared atomics</source>
        <translation>атомарные в разделяемой</translation>
    </message>
    <message>
        <location line="+5"/>
        <source>{what}: {n} requests, {per} sectors per request</source>
        <translation>{what}: запросов {n}, секторов на запрос {per}</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>{what}: {n} requests, {c} bank conflicts</source>
        <translation>{what}: запросов {n}, конфликтов банков {c}</translation>
    </message>
</context>
<context>
    <name>RooflinePlot</name>
    <message>
        <location filename="../../explorer/gui/gemm/charts.py" line="-480"/>
        <source>Arithmetic intensity (FLOP per byte, log scale)</source>
        <translation>Арифм. интенсивность (FLOP/байт, лог. шкала)</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>TFLOPS (log scale)</source>
        <translation>TFLOPS (лог. шкала)</translation>
    </message>
    <message>
        <location line="+14"/>
        <source>HBM</source>
        <translation>HBM</translation>
    </message>
    <message>
        <location line="+0"/>
        <source>L2</source>
        <translation>L2</translation>
    </message>
    <message>
        <location line="+0"/>
        <source>shared</source>
        <translation>разделяемая</translation>
    </message>
    <message>
        <location line="+58"/>
        <source>bound: {name}, {rate}</source>
        <translation>ограничение: {name}, {rate}</translation>
    </message>
    <message>
        <location line="+15"/>
        <source>this GEMM</source>
        <translation>этот GEMM</translation>
    </message>
    <message>
        <location line="+104"/>
        <source>Tensor Cores (sustained)</source>
        <translation>тензорные ядра (устойчиво)</translation>
    </message>
    <message>
        <location line="+0"/>
        <source>FP32 pipes (sustained)</source>
        <translation>конвейеры FP32 (устойчиво)</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>instruction issue</source>
        <translation>выдача инструкций</translation>
    </message>
    <message>
        <location line="+0"/>
        <source>shared-memory bandwidth</source>
        <translation>пропускная способность разделяемой памяти</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>L2 bandwidth</source>
        <translation>пропускная способность L2</translation>
    </message>
    <message>
        <location line="+0"/>
        <source>HBM bandwidth</source>
        <translation>пропускная способность HBM</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>latency (memory in flight)</source>
        <translation>задержка (память в полёте)</translation>
    </message>
</context>
<context>
    <name>RunBox</name>
    <message>
        <location filename="../../explorer/gui/explore/metrics.py" line="+18"/>
        <source>Whole run</source>
        <translation>Весь прогон</translation>
    </message>
    <message>
        <location line="+44"/>
        <source>Theoretical occupancy</source>
        <translation>Теоретическая заполняемость</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>The most warps an SM can hold for this launch ÷ its warp slots (NVIDIA&apos;s occupancy rules).</source>
        <translation>Наибольшее число варпов, которое SM вмещает при этом запуске, ÷ его слоты варпов (правила заполняемости NVIDIA).</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Achieved occupancy</source>
        <translation>Достигнутая заполняемость</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Resident warps averaged over the cycles an SM was active ÷ its warp slots (Nsight&apos;s sm__warps_active).</source>
        <translation>Размещённые варпы, усреднённые по тактам, когда SM был активен, ÷ его слоты варпов (sm__warps_active в Nsight).</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>“GPU utilization” (NVML)</source>
        <translation>«Загрузка GPU» (NVML)</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>What nvidia-smi reports: the share of time at least one kernel was running. One resident warp is enough for 100%.</source>
        <translation>То, что показывает nvidia-smi: доля времени, когда работало хотя бы одно ядро. Для 100% достаточно одного размещённого варпа.</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>Issue slots used</source>
        <translation>Использовано слотов выдачи</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Instructions issued ÷ (cycles × SMs × schedulers): how much of the GPU&apos;s issue capacity did work.</source>
        <translation>Выданные инструкции ÷ (такты × SM × планировщики): какая часть возможностей GPU по выдаче инструкций действительно работала.</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>DRAM (HBM) bandwidth</source>
        <translation>Полоса DRAM (HBM)</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Bytes the run moved to and from device memory ÷ its duration, against the GPU&apos;s peak memory bandwidth.</source>
        <translation>Байты, переданные запуском в память устройства и из неё, ÷ его длительность — в сравнении с пиковой пропускной способностью памяти GPU.</translation>
    </message>
    <message>
        <location line="+50"/>
        <source>Warp states over the run (Nsight-style breakdown):</source>
        <translation>Состояния варпов за прогон (разбивка как в Nsight):</translation>
    </message>
    <message>
        <location line="+7"/>
        <location line="+132"/>
        <source>Numbers of the previous simulation: the new one is still running.</source>
        <translation>Числа предыдущей симуляции: новая ещё идёт.</translation>
    </message>
    <message>
        <location line="-115"/>
        <source>{gpu}: {blocks} blocks × {wpb} warps = {warps} warps, {cycles} cycles ({us} µs at {mhz} MHz)</source>
        <translation>{gpu}: всего варпов {warps} (блоков {blocks} × варпов в блоке {wpb}), тактов {cycles} ({us} мкс при {mhz} МГц)</translation>
    </message>
    <message>
        <location line="+5"/>
        <source>The kernel runs from its launch until its last warp has left and its stores have completed: the last {tail} cycles no warp was resident while L2 and device memory still took its stores.</source>
        <translation>Ядро работает от запуска до ухода последнего варпа и завершения его записей: последние {tail} тактов на SM не было варпов, а L2 и память устройства ещё принимали записанные данные.</translation>
    </message>
    <message>
        <location line="+10"/>
        <source>{bw} GB/s of the peak {peak} GB/s; the simulator&apos;s memory system sustains at most {sustained} GB/s (what a streaming kernel reaches).</source>
        <translation>{bw} ГБ/с из пиковых {peak} ГБ/с; память в симуляторе выдерживает не больше {sustained} ГБ/с (столько достигает потоковое ядро).</translation>
    </message>
    <message>
        <location line="+23"/>
        <source>{bw} of {peak} {unit} peak</source>
        <translation>{bw} из {peak} {unit} (пик)</translation>
    </message>
    <message>
        <location line="+28"/>
        <source>The GPU reads {util} “utilized”, and here its schedulers are busy too: they issue {busy} ({used} of their slots). Issuing instructions is the limit, not waiting.</source>
        <translation>«Загрузка» GPU — {util}, и здесь его планировщики тоже заняты: они выдают инструкции {busy} ({used} слотов). Ограничивает выдача инструкций, а не ожидание.</translation>
    </message>
    <message>
        <location line="+4"/>
        <source>The GPU reads {util} “utilized”, and here it is busy too: {unit} at {share} of the peak (busy {busy}) is the limit, not waiting.</source>
        <translation>«Загрузка» GPU — {util}, и здесь он действительно занят: предел — {unit} на {share} пика (занят {busy}), а не ожидание.</translation>
    </message>
    <message>
        <location line="+4"/>
        <source>The GPU reads {util} “utilized”, yet {idle} of its issue slots did nothing: the warps wait for memory, and HBM moves {share} of its peak bandwidth.</source>
        <translation>«Загрузка» GPU — {util}, но {idle} его слотов выдачи простаивали: варпы ждут память, а HBM выдаёт {share} своей пиковой пропускной способности.</translation>
    </message>
    <message>
        <location line="+9"/>
        <source>The GPU reads {util} “utilized”, yet {idle} of its issue slots did nothing: utilization only says a kernel was running.</source>
        <translation>«Загрузка» GPU — {util}, но {idle} его слотов выдачи простаивали: загрузка говорит лишь о том, что ядро работало.</translation>
    </message>
    <message>
        <location line="-60"/>
        <source>Waves: {waves} ({blocks} blocks; {per_wave} fit at once)
IPC: {ipc} instructions per active SM per cycle (max {sp})
Ready warps per scheduler: {elig} on average</source>
        <translation>Волны: {waves} (блоков {blocks}; одновременно помещается {per_wave})
IPC (инструкций за такт на активный SM): {ipc} (макс. {sp})
Готовых варпов на планировщик: в среднем {elig}</translation>
    </message>
    <message>
        <location line="-61"/>
        <source>The instruction stream the simulator ran: the generated kernel&apos;s SASS, or the workload model (one instruction per modelled operation); the same scenario gives slightly different figures with each.</source>
        <translation>Поток инструкций, который выполнил симулятор: SASS сгенерированного ядра или модель нагрузки (одна инструкция на моделируемую операцию); один и тот же сценарий даёт с ними немного разные числа.</translation>
    </message>
    <message>
        <location line="+29"/>
        <source>Limiter: {limit} — {blocks} ({warps}) per SM of {max}.</source>
        <translation>Ограничитель: {limit} — {blocks} ({warps} из {max}) на SM.</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>block|blocks</source>
        <translation>блок|блока|блоков</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>warp|warps</source>
        <translation>варп|варпа|варпов</translation>
    </message>
    <message>
        <location line="+6"/>
        <source>Program: {program}</source>
        <translation>Программа: {program}</translation>
    </message>
    <message>
        <location line="+31"/>
        <source>warp-cycles</source>
        <translation>варпо-тактов</translation>
    </message>
    <message>
        <location line="+22"/>
        <source>The GPU reads {util} “utilized” and {idle} of its issue slots did nothing, but issue slots are the wrong measure here: on the SMs that have work the Tensor Cores run at {share} of their peak (busy {busy}; {gpu} over the whole GPU, whose other SMs have no block), and each MMA ({mma} of the warp-instructions) keeps its scheduler&apos;s Tensor Core pipe busy for {n}.</source>
        <translation>«Загрузка» GPU — {util}, и {idle} его слотов выдачи простаивали, но слоты выдачи здесь — неверная мера: на SM, у которых есть работа, тензорные ядра работают на {share} своего пика (заняты {busy}; {gpu} по всему GPU, остальным SM не досталось блока), и каждая MMA ({mma} инструкций варпов) занимает конвейер тензорных ядер своего планировщика на {n}.</translation>
    </message>
    <message>
        <location line="+6"/>
        <location line="+6"/>
        <source>cycle|cycles</source>
        <translation>такт|такта|тактов</translation>
    </message>
    <message>
        <location line="-4"/>
        <source>The GPU reads {util} “utilized” and {idle} of its issue slots did nothing, but issue slots are the wrong measure here: the Tensor Cores run at {share} of their peak (busy {busy}), and each MMA ({mma} of the warp-instructions) keeps its scheduler&apos;s Tensor Core pipe busy for {n}.</source>
        <translation>«Загрузка» GPU — {util}, и {idle} его слотов выдачи простаивали, но слоты выдачи здесь — неверная мера: тензорные ядра работают на {share} своего пика (заняты {busy}), и каждая MMA ({mma} инструкций варпов) занимает конвейер тензорных ядер своего планировщика на {n}.</translation>
    </message>
    <message>
        <location line="+18"/>
        <source>The GPU reads {util} “utilized”, yet {idle} of its issue slots did nothing: the warps wait for memory, and {unit} runs at {share} of its peak.</source>
        <translation>«Загрузка» GPU — {util}, но {idle} его слотов выдачи простаивали: варпы ждут память, а {unit} работает на {share} своего пика.</translation>
    </message>
    <message>
        <location line="+8"/>
        <source>Most warp-cycles are “{state}” ({share}).</source>
        <translation>Больше всего варпо-тактов — «{state}» ({share}).</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>No unit is near its peak (the busiest: {unit}, {share}).</source>
        <translation>Ни один узел не близок к пику (самый занятый: {unit}, {share}).</translation>
    </message>
    <message>
        <location line="+7"/>
        <source>The GPU reads {util} “utilized” and {idle} of its issue slots did nothing, but where there is work the Tensor Cores run at {share} of their peak.</source>
        <translation>«Загрузка» GPU — {util}, и {idle} его слотов выдачи простаивали, но там, где есть работа, тензорные ядра работают на {share} своего пика.</translation>
    </message>
    <message>
        <location line="+4"/>
        <source>The GPU reads {util} “utilized” and {idle} of its issue slots did nothing, but the Tensor Cores run at {share} of their peak.</source>
        <translation>«Загрузка» GPU — {util}, и {idle} его слотов выдачи простаивали, но тензорные ядра работают на {share} своего пика.</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>The GPU reads {util} “utilized”, and its schedulers issue {busy} ({used} of their slots).</source>
        <translation>«Загрузка» GPU — {util}, и его планировщики выдают инструкции {busy} ({used} слотов).</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>The GPU reads {util} “utilized”: {unit} at {share} of its peak is the limit.</source>
        <translation>«Загрузка» GPU — {util}: предел — {unit} на {share} своего пика.</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>The GPU reads {util} “utilized”, yet {idle} of its issue slots did nothing: the warps wait for memory.</source>
        <translation>«Загрузка» GPU — {util}, но {idle} его слотов выдачи простаивали: варпы ждут память.</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>The GPU reads {util} “utilized”, yet {idle} of its issue slots did nothing.</source>
        <translation>«Загрузка» GPU — {util}, но {idle} его слотов выдачи простаивали.</translation>
    </message>
    <message>
        <location line="+4"/>
        <source>Numbers of the last good simulation: fix the marked input.</source>
        <translation>Числа последней удачной симуляции: исправьте отмеченное поле.</translation>
    </message>
</context>
<context>
    <name>RunColumn</name>
    <message>
        <location filename="../../explorer/gui/compare/column.py" line="+51"/>
        <source>This cycle&apos;s warps: unfinished (launched, not finished yet), resident on the SMs, ready (eligible) to issue, and issued.</source>
        <translation>Варпы этого такта: осталось (запущены, ещё не завершились), размещённые на SM, готовые к выдаче и выданные.</translation>
    </message>
    <message>
        <location line="+73"/>
        <source>&lt;b&gt;Finished&lt;/b&gt; after {n} cycles: its last cycle is shown</source>
        <translation>&lt;b&gt;Завершён&lt;/b&gt; (тактов: {n}): показан его последний такт</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>Cycle {c} of {n}</source>
        <translation>Такт {c} из {n}</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>{launched} unfinished · {resident} resident · {ready} ready · {issued} issued</source>
        <translation>{launched} осталось · {resident} размещено · {ready} готово · {issued} выдано</translation>
    </message>
    <message>
        <location line="+22"/>
        <source>custom workload</source>
        <translation>своя нагрузка</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>{gpu} · {blocks} × {threads} threads · {regs} registers · {smem} B shared · {workload} · {policy}</source>
        <translation>{gpu} · {blocks} × {threads} потоков · регистров: {regs} · разделяемой: {smem} Б · {workload} · {policy}</translation>
    </message>
</context>
<context>
    <name>SassFeature</name>
    <message>
        <location filename="../../explorer/gui/sass/feature.py" line="+35"/>
        <source>&amp;SASS view</source>
        <translation>&amp;SASS-листинг</translation>
    </message>
    <message>
        <location line="+6"/>
        <source>Show or hide the SASS view beside the timeline: the instructions the simulator ran, where the selected warp is, and where time went.</source>
        <translation>Показать или скрыть SASS-листинг рядом с временной шкалой: инструкции, которые выполнил симулятор, где сейчас выбранный варп и куда ушло время.</translation>
    </message>
</context>
<context>
    <name>SassListing</name>
    <message>
        <location filename="../../explorer/gui/sass/listing_model.py" line="+158"/>
        <source>PC</source>
        <translation>PC</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Instruction</source>
        <translation>Инструкция</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Warp-cycles</source>
        <translation>Варпо-такты</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>States</source>
        <translation>Состояния</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Top stall</source>
        <translation>Главный простой</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Unit</source>
        <translation>Узел</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Latency</source>
        <translation>Задержка</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Lanes</source>
        <translation>Линии</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>L1 / L2 hits</source>
        <translation>Попадания L1 / L2</translation>
    </message>
    <message>
        <location line="+4"/>
        <source>The instruction&apos;s address in the function (hexadecimal). ▶ marks the selected warp&apos;s next instruction at the cursor.</source>
        <translation>Адрес инструкции в функции (шестнадцатеричный). ▶ отмечает следующую инструкцию выбранного варпа на курсоре.</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>The SASS instruction as nvdisasm prints it.</source>
        <translation>Инструкция SASS так, как её печатает nvdisasm.</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Warp-cycles the simulated warps spent with this instruction next (every state but an empty slot), over the whole run: the hottest instructions are where time goes.</source>
        <translation>Варпо-такты, которые смоделированные варпы провели с этой инструкцией следующей (все состояния, кроме пустого слота), за весь прогон: самые горячие инструкции — там, куда уходит время.</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>Those warp-cycles by warp state; the bar&apos;s length is relative to the hottest instruction.</source>
        <translation>Эти варпо-такты по состояниям варпа; длина полосы — относительно самой горячей инструкции.</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>The state, other than issuing, that held warps longest at this instruction, and its share.</source>
        <translation>Состояние (кроме выдачи), дольше всего державшее варпы на этой инструкции, и его доля.</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>The pipe the instruction is issued to (Nsight Compute&apos;s names).</source>
        <translation>Конвейер, которому выдаётся инструкция (названия Nsight Compute).</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Cycles until a dependent instruction may issue (memory: decided by the memory system).</source>
        <translation>Тактов до того, как может быть выдана зависимая инструкция (память: решает система памяти).</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>Active lanes per warp-instruction that executed it, of 32, over the whole run (Nsight Compute&apos;s average active threads per warp): below 32 where warps diverged or some of their threads had exited.</source>
        <translation>Активных линий (lanes) на выполнившую её варп-инструкцию, из 32, за весь прогон (в Nsight Compute — average active threads per warp): меньше 32, где варпы разошлись или часть их потоков уже завершилась.</translation>
    </message>
    <message>
        <location line="+4"/>
        <source>Of the 32-byte sectors this instruction&apos;s accesses looked up, the share that hit in L1 and in L2 over the whole run (Nsight Compute&apos;s per-instruction sector hit rates), decided by the addresses the warps touched.</source>
        <translation>Доля 32-байтных секторов, запрошенных этой инструкцией, которые попали в L1 и в L2 за весь запуск (доли попаданий секторов по инструкциям, как в Nsight Compute); их решают адреса, к которым обращались варпы.</translation>
    </message>
    <message>
        <location line="+67"/>
        <source>Instrumentation: the generated kernel records %smid, %globaltimer and clock64 for the measurement; not part of the workload.</source>
        <translation>Инструментирование: сгенерированное ядро записывает %smid, %globaltimer и clock64 для измерения; это не часть нагрузки.</translation>
    </message>
    <message>
        <location line="+4"/>
        <source>No warp executes this instruction with the kernel&apos;s arguments.</source>
        <translation>С аргументами ядра ни один варп не выполняет эту инструкцию.</translation>
    </message>
    <message>
        <location line="+11"/>
        <source>Click for its details.</source>
        <translation>Щёлкните, чтобы увидеть подробности.</translation>
    </message>
    <message>
        <location line="+23"/>
        <source>No sector of this instruction was looked up by address: it is not a global access, or its hits were drawn from the scenario&apos;s hit rates.</source>
        <translation>Ни один сектор этой инструкции не искался по адресу: это не глобальный доступ, или её попадания взяты из долей попаданий сценария.</translation>
    </message>
    <message>
        <location line="+5"/>
        <source>L1: {hit} of {n} sectors hit ({rate}).</source>
        <translation>L1: попали {hit} из {n} секторов ({rate}).</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>L2: {hit} of {n} sectors hit ({rate}); the {miss} others came from device memory.</source>
        <translation>L2: попали {hit} из {n} секторов ({rate}); остальные {miss} пришли из памяти устройства.</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>Global loads do not allocate in L1 here unless they read through the read-only path; stores write through L1 (misses there) and are written into L2 without a fetch (hits).</source>
        <translation>Глобальные загрузки здесь не размещаются в L1, если не читают через путь только для чтения; записи проходят сквозь L1 (там промахи) и записываются в L2 без чтения (попадания).</translation>
    </message>
    <message>
        <location line="+10"/>
        <source>No warp-instruction executed it in this run.</source>
        <translation>В этом прогоне её не выполнила ни одна варп-инструкция.</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>{n} warp-instructions executed it, {avg} of 32 lanes active on average ({eff} SIMT efficiency).</source>
        <translation>Её выполнили варп-инструкций: {n}; в среднем активно {avg} из 32 линий (SIMT-эффективность {eff}).</translation>
    </message>
    <message>
        <location line="+13"/>
        <source>No simulated warp-cycles at this instruction.</source>
        <translation>На этой инструкции нет смоделированных варпо-тактов.</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>{n} warp-cycles with this instruction next:</source>
        <translation>{n} варпо-тактов с этой инструкцией следующей:</translation>
    </message>
</context>
<context>
    <name>SassTexts</name>
    <message>
        <location filename="../../explorer/gui/sass/texts.py" line="+20"/>
        <source>FMA pipe: single-precision adds, multiplies and fused multiply-adds.</source>
        <translation>Конвейер FMA: сложения, умножения и совмещённые умножения-сложения одинарной точности.</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>FMA heavy pipe: FP32 work plus integer multiplies and conversions.</source>
        <translation>Тяжёлый конвейер FMA: работа FP32, а также целочисленные умножения и преобразования.</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>FP16 pipe: half-precision arithmetic (packed pairs).</source>
        <translation>Конвейер FP16: арифметика половинной точности (упакованные пары).</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>ALU pipe: integer and logic operations, comparisons, moves.</source>
        <translation>Конвейер ALU: целочисленные и логические операции, сравнения, пересылки.</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>FP64 pipe: double-precision arithmetic.</source>
        <translation>Конвейер FP64: арифметика двойной точности.</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>XU (SFU): transcendental functions, reciprocals and conversions (MUFU).</source>
        <translation>XU (SFU): трансцендентные функции, обратные величины и преобразования (MUFU).</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Tensor Cores: matrix multiply-accumulate (HMMA, IMMA, HGMMA).</source>
        <translation>Тензорные ядра: матричное умножение с накоплением (HMMA, IMMA, HGMMA).</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Load/store unit: global, local and shared memory accesses through L1TEX.</source>
        <translation>Узел загрузки/сохранения: обращения к глобальной, локальной и разделяемой памяти через L1TEX.</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Address divergence unit: branches, barriers and warp synchronisation.</source>
        <translation>Узел расхождения адресов: переходы, барьеры и синхронизация варпа.</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Convergence barrier unit: EXIT, BSSY/BSYNC and divergent branches.</source>
        <translation>Узел барьеров схождения: EXIT, BSSY/BSYNC и расходящиеся переходы.</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Uniform datapath: one value for the whole warp (UR registers).</source>
        <translation>Униформный тракт: одно значение на весь варп (регистры UR).</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>A pipe the opcode table does not describe.</source>
        <translation>Конвейер, которого нет в таблице опкодов.</translation>
    </message>
    <message>
        <location line="+6"/>
        <source>no register result</source>
        <translation>нет результата в регистре</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>set by the memory system</source>
        <translation>определяется системой памяти</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>{n} cycles</source>
        <translation>{n} тактов</translation>
    </message>
    <message>
        <location line="+5"/>
        <source>fixed latency: a dependent waits a known number of cycles (the wait state)</source>
        <translation>фиксированная задержка: зависимая инструкция ждёт известное число тактов (состояние wait)</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>short scoreboard: a dependent waits until the shared-memory or MUFU result is back (short_scoreboard)</source>
        <translation>короткий scoreboard: зависимая инструкция ждёт результата из разделяемой памяти или MUFU (short_scoreboard)</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>long scoreboard: a dependent waits until the global-memory result is back (long_scoreboard)</source>
        <translation>длинный scoreboard: зависимая инструкция ждёт результата из глобальной памяти (long_scoreboard)</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>no result register to wait for</source>
        <translation>нет регистра результата, которого пришлось бы ждать</translation>
    </message>
    <message>
        <location line="+6"/>
        <source>before the loop (once per warp)</source>
        <translation>до цикла (один раз на варп)</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>loop body ({n} times per warp)</source>
        <translation>тело цикла ({n} раз на варп)</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>after the loop (once per warp)</source>
        <translation>после цикла (один раз на варп)</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>never executed (a branch the kernel&apos;s arguments never take)</source>
        <translation>никогда не выполняется (ветвь, в которую аргументы ядра не ведут)</translation>
    </message>
    <message>
        <location line="+7"/>
        <source>instruction|instructions</source>
        <translation>инструкция|инструкции|инструкций</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>SASS of {fn} ({arch}) · {n} per warp</source>
        <translation>SASS функции {fn} ({arch}) · {n} на варп</translation>
    </message>
    <message>
        <location line="+11"/>
        <source>The simulator ran the workload model: one instruction per workload operation, virtual registers, no address arithmetic or instrumentation ({n} per warp).</source>
        <translation>Симулятор выполнил модель нагрузки: по одной инструкции на операцию нагрузки, виртуальные регистры, без адресной арифметики и инструментирования ({n} на варп).</translation>
    </message>
    <message>
        <location line="-8"/>
        <source>{k} of them instrumentation</source>
        <translation>из них {k} — инструментирование</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>The simulator ran the kernel&apos;s own SASS: the instructions the compiled kernel executes on the GPU, compiled with {compiler} and disassembled with {disasm}.</source>
        <translation>Симулятор выполнил собственный SASS ядра: те инструкции, которые скомпилированное ядро выполняет на GPU; компилятор {compiler}, дизассемблер {disasm}.</translation>
    </message>
    <message>
        <location line="+5"/>
        <source>the scenario chose program = &quot;model&quot;</source>
        <translation>в сценарии выбрано program = &quot;model&quot;</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Workload model, not SASS: {why}</source>
        <translation>Модель нагрузки, а не SASS: {why}</translation>
    </message>
</context>
<context>
    <name>SassView</name>
    <message>
        <location filename="../../explorer/gui/sass/view.py" line="+111"/>
        <source>The warp slot of the selected SM whose next instruction is marked ▶ (or click a row of the timeline).</source>
        <translation>Слот варпа выбранного SM, чья следующая инструкция отмечена ▶ (или щёлкните строку временной шкалы).</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>warp slot </source>
        <translation>слот варпа </translation>
    </message>
    <message>
        <location line="+2"/>
        <source>Follow</source>
        <translation>Следить</translation>
    </message>
    <message>
        <location line="+4"/>
        <source>Scroll the listing so the warp&apos;s next instruction stays in view during playback.</source>
        <translation>Прокручивать листинг, чтобы следующая инструкция варпа оставалась видна при воспроизведении.</translation>
    </message>
    <message>
        <location line="+5"/>
        <source>Hottest first</source>
        <translation>Горячие сверху</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>Sort the instructions by the warp-cycles spent at them, most first (again: program order). A click on a column header sorts by it.</source>
        <translation>Отсортировать инструкции по проведённым на них варпо-тактам, больше — выше (ещё раз: порядок программы). Щелчок по заголовку столбца сортирует по нему.</translation>
    </message>
    <message>
        <location line="+71"/>
        <source>SASS</source>
        <translation>SASS</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>The instructions the simulator ran, with the warp-cycles spent at each (simulated, every cycle).</source>
        <translation>Инструкции, которые выполнил симулятор, и варпо-такты на каждой (смоделировано, каждый такт).</translation>
    </message>
    <message>
        <location line="+9"/>
        <source>CUDA source</source>
        <translation>Исходник CUDA</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>The CUDA kernel the scenario generates: what Run on GPU compiles, and where the SASS comes from.</source>
        <translation>Ядро CUDA, которое генерирует сценарий: его компилирует «Запуск на GPU», из него получается SASS.</translation>
    </message>
    <message>
        <location line="+21"/>
        <source>This run carries no instruction stream.</source>
        <translation>В этом прогоне нет потока инструкций.</translation>
    </message>
    <message>
        <location line="+5"/>
        <source>Model</source>
        <translation>Модель</translation>
    </message>
    <message>
        <location line="+77"/>
        <source>No instructions to follow.</source>
        <translation>Нет инструкций, за которыми следить.</translation>
    </message>
    <message>
        <location line="+21"/>
        <source>{n}/32 lanes</source>
        <translation>{n}/32 линий</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>{what}: {state}</source>
        <translation>{what}: {state}</translation>
    </message>
    <message>
        <location line="+5"/>
        <source>SM {sm}&apos;s instructions were not recorded in this run.</source>
        <translation>Инструкции SM {sm} в этом прогоне не записаны.</translation>
    </message>
    <message>
        <location line="+1"/>
        <location line="+3"/>
        <source>not recorded</source>
        <translation>не записано</translation>
    </message>
    <message>
        <location line="-1"/>
        <source>Cycle {c} is past the recorded cycles.</source>
        <translation>Такт {c} — за пределами записанных тактов.</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>Slot {s} holds no warp now.</source>
        <translation>В слоте {s} сейчас нет варпа.</translation>
    </message>
    <message>
        <location line="+0"/>
        <source>no warp</source>
        <translation>нет варпа</translation>
    </message>
    <message>
        <location line="+4"/>
        <source>The warp&apos;s active lanes: no warp in this slot now (or not recorded).</source>
        <translation>Активные линии варпа: сейчас в этом слоте нет варпа (или он не записан).</translation>
    </message>
    <message>
        <location line="+4"/>
        <source>All 32 lanes of the warp issue its next instruction (mask {mask}).</source>
        <translation>Следующую инструкцию варпа выдают все 32 линии (маска {mask}).</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>{n} of the warp&apos;s 32 lanes issue its next instruction (mask {mask}, bit k = lane k): filled cells, lane 0 on the left; the others diverged away or exited.</source>
        <translation>Следующую инструкцию варпа выдают {n} из 32 линий (маска {mask}, бит k — линия k): закрашенные клетки, линия 0 слева; остальные ушли по другой ветви или завершились.</translation>
    </message>
    <message>
        <location line="+69"/>
        <source>Click an instruction for its unit, latency and the registers it waits on.</source>
        <translation>Щёлкните инструкцию: её узел, задержка и регистры, которых она ждёт.</translation>
    </message>
    <message>
        <location line="+6"/>
        <source>warp-cycles</source>
        <translation>варпо-тактов</translation>
    </message>
    <message>
        <location line="+9"/>
        <source>Instrumentation (the measurement&apos;s clock and SM-id recording): dimmed, but it runs and takes issue slots.</source>
        <translation>Инструментирование (запись часов и номера SM для измерения): показано бледно, но выполняется и занимает слоты выдачи.</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>&lt;b&gt;Unit&lt;/b&gt; {unit}: {meaning}</source>
        <translation>&lt;b&gt;Узел&lt;/b&gt; {unit}: {meaning}</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>&lt;b&gt;Latency&lt;/b&gt; {lat}; {kind}.</source>
        <translation>&lt;b&gt;Задержка&lt;/b&gt; {lat}; {kind}.</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>&lt;b&gt;Runs&lt;/b&gt; {where}.</source>
        <translation>&lt;b&gt;Выполняется&lt;/b&gt; {where}.</translation>
    </message>
    <message>
        <location line="+5"/>
        <source>&lt;b&gt;Waits on&lt;/b&gt; (reads):</source>
        <translation>&lt;b&gt;Ждёт&lt;/b&gt; (читает):</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>&lt;b&gt;Waits on&lt;/b&gt; no register.</source>
        <translation>&lt;b&gt;Ждёт&lt;/b&gt; ни одного регистра.</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>&lt;b&gt;Writes&lt;/b&gt; {regs} (it also waits for earlier writes to these registers to finish).</source>
        <translation>&lt;b&gt;Пишет&lt;/b&gt; {regs} (и ждёт, пока завершатся прежние записи в эти регистры).</translation>
    </message>
    <message>
        <location line="+4"/>
        <source>&lt;b&gt;Lanes&lt;/b&gt;: {what}</source>
        <translation>&lt;b&gt;Линии&lt;/b&gt;: {what}</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>&lt;b&gt;Caches&lt;/b&gt;: {what}</source>
        <translation>&lt;b&gt;Кэши&lt;/b&gt;: {what}</translation>
    </message>
    <message>
        <location line="+4"/>
        <source>&lt;b&gt;Simulated&lt;/b&gt;: {n} warp-cycles with it next, {share} of the run&apos;s.</source>
        <translation>&lt;b&gt;Смоделировано&lt;/b&gt;: {n} варпо-тактов с ней следующей, {share} всех за прогон.</translation>
    </message>
    <message>
        <location line="+7"/>
        <source>{reg}: ready from the start (never written before)</source>
        <translation>{reg}: готов с самого начала (до этого не записывается)</translation>
    </message>
    <message>
        <location line="+4"/>
        <source>(the loop&apos;s previous iteration)</source>
        <translation>(предыдущая итерация цикла)</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>(before the loop: first iteration only)</source>
        <translation>(до цикла: только первая итерация)</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>{reg} ← {pc} {op}{when}: {how}</source>
        <translation>{reg} ← {pc} {op}{when}: {how}</translation>
    </message>
    <message>
        <location line="+21"/>
        <source>// This scenario&apos;s kernel cannot be generated: {why}</source>
        <translation>// Ядро этого сценария не удаётся сгенерировать: {why}</translation>
    </message>
</context>
<context>
    <name>ScenarioFiles</name>
    <message>
        <location filename="../../explorer/gui/files/scenario_files.py" line="+81"/>
        <source>Scenarios</source>
        <translation>Сценарии</translation>
    </message>
    <message>
        <location line="+10"/>
        <source>Open &amp;Recent</source>
        <translation>Открыть &amp;недавние</translation>
    </message>
    <message>
        <location line="+4"/>
        <source>&amp;Save Scenario</source>
        <translation>&amp;Сохранить сценарий</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>Save the Explorer&apos;s scenario to its file (TOML).</source>
        <translation>Сохранить сценарий обозревателя в его файл (TOML).</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>Save Scenario &amp;As…</source>
        <translation>Сохранить сценарий &amp;как…</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>Save the Explorer&apos;s scenario to a new TOML file.</source>
        <translation>Сохранить сценарий обозревателя в новый файл TOML.</translation>
    </message>
    <message>
        <location line="+17"/>
        <source>(no recent files)</source>
        <translation>(нет недавних файлов)</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>&amp;Clear the list</source>
        <translation>&amp;Очистить список</translation>
    </message>
    <message>
        <location line="+11"/>
        <location line="+7"/>
        <location line="+16"/>
        <source>Cannot open {name}</source>
        <translation>Не удаётся открыть {name}</translation>
    </message>
    <message>
        <location line="-22"/>
        <location line="+7"/>
        <source>{name} is not a scenario this app can use:
{problem}</source>
        <translation>{name} — не сценарий, который может использовать приложение:
{problem}</translation>
    </message>
    <message>
        <location line="+9"/>
        <source>Opened {path}</source>
        <translation>Открыт {path}</translation>
    </message>
    <message>
        <location line="+7"/>
        <source>{path} no longer exists; it was taken off the recent files.</source>
        <translation>{path} больше не существует; он убран из недавних файлов.</translation>
    </message>
    <message>
        <location line="+18"/>
        <location line="+33"/>
        <source>Not saved</source>
        <translation>Не сохранено</translation>
    </message>
    <message>
        <location line="-32"/>
        <source>Some fields are invalid ({fields}). Fix them first: saving now would not save what you see.</source>
        <translation>Некоторые поля неверны ({fields}). Сначала исправьте их: иначе сохранится не то, что вы видите.</translation>
    </message>
    <message>
        <location line="+14"/>
        <source>Save Scenario</source>
        <translation>Сохранить сценарий</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Scenarios (*.toml)</source>
        <translation>Сценарии (*.toml)</translation>
    </message>
    <message>
        <location line="+17"/>
        <source>Cannot write {path}: {err}</source>
        <translation>Не удаётся записать {path}: {err}</translation>
    </message>
    <message>
        <location line="+7"/>
        <source>Saved {path}</source>
        <translation>Сохранено: {path}</translation>
    </message>
    <message>
        <location line="+13"/>
        <source>{name}[*] — Warp Explorer</source>
        <translation>{name}[*] — Warp Explorer</translation>
    </message>
</context>
<context>
    <name>ScenarioPanel</name>
    <message>
        <location filename="../../explorer/gui/explore/scenario_panel.py" line="+143"/>
        <source>Kernel and GPU</source>
        <translation>Ядро и GPU</translation>
    </message>
    <message>
        <location line="+6"/>
        <source>Start from one of the shipped scenarios; every field below can then be changed.</source>
        <translation>Начните с одного из готовых сценариев; затем любое поле ниже можно изменить.</translation>
    </message>
    <message>
        <location line="+5"/>
        <source>{full}: {sms} SMs × {warps} warp slots</source>
        <translation>{full}: {sms} SM, слотов варпов на SM: {warps}</translation>
    </message>
    <message>
        <location line="+29"/>
        <source>as one graph</source>
        <translation>одним графом</translation>
    </message>
    <message>
        <location line="+5"/>
        <source>Stream of launches</source>
        <translation>Поток запусков</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>The kernel launched many times in a row: the gaps between launches and NVML&apos;s sample period decide what NVML&apos;s utilization reads (the stream strip above the counts).</source>
        <translation>Ядро, запущенное много раз подряд: промежутки между запусками и период выборки NVML определяют, что показывает загрузка NVML (полоса потока над графиком варпов).</translation>
    </message>
    <message>
        <location line="+54"/>
        <source>The GPU to simulate: its SM count, limits and latencies.</source>
        <translation>Какой GPU симулировать: число SM, ограничения и задержки.</translation>
    </message>
    <message>
        <location line="+0"/>
        <source>GP&amp;U:</source>
        <translation>GP&amp;U:</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>G&amp;rid (blocks):</source>
        <translation>С&amp;етка (блоков):</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Blocks in the grid: N or x, y, z (gridDim).</source>
        <translation>Блоков в сетке: N или x, y, z (gridDim).</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>Threads per block: N or x, y, z (blockDim); the SM allocates whole warps of 32.</source>
        <translation>Потоков на блок: N или x, y, z (blockDim); SM выделяет целые варпы по 32 потока.</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>Registers the compiler gave each thread; more registers, fewer blocks per SM.</source>
        <translation>Сколько регистров компилятор выделил каждому потоку; больше регистров — меньше блоков на SM.</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>Bytes of __shared__ arrays declared in the kernel.</source>
        <translation>Байты массивов __shared__, объявленных в ядре.</translation>
    </message>
    <message>
        <location line="+15"/>
        <source>&amp;Launches:</source>
        <translation>Зап&amp;усков:</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>How many times the kernel is launched in a row, into one stream (1: a single launch).</source>
        <translation>Сколько раз ядро запускается подряд в один поток (1 — один запуск).</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>&amp;Gap (µs):</source>
        <translation>&amp;Промежуток (мкс):</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Microseconds from the end of one kernel to the start of the next (launch overhead); empty: the GPU&apos;s figure.</source>
        <translation>Микросекунды от конца одного ядра до начала следующего (накладные расходы запуска); пусто — значение для этого GPU.</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>CUDA Grap&amp;h:</source>
        <translation>CUDA &amp;Graph:</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>The launches as the nodes of one CUDA Graph: the graph&apos;s per-node gap replaces the launch gap.</source>
        <translation>Запуски как узлы одного CUDA Graph: промежуток между узлами графа заменяет промежуток между запусками.</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Sync &amp;every:</source>
        <translation>Син&amp;хр. каждые:</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>The host waits for the kernel (cudaStreamSynchronize) after every N-th launch, a round trip instead of a launch gap; 0: never.</source>
        <translation>Хост ждёт завершения ядра (cudaStreamSynchronize) после каждого N-го запуска: вместо промежутка между запусками — круговая задержка; 0 — никогда.</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>NVML peri&amp;od (ms):</source>
        <translation>Период NVML (&amp;мс):</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>NVML&apos;s utilization sample period; empty: the GPU&apos;s figure.</source>
        <translation>Период выборки загрузки NVML; пусто — значение для этого GPU.</translation>
    </message>
    <message>
        <location line="+44"/>
        <source>This scenario&apos;s copies meet L2 by the addresses of the tiles they copy ([workload.tiles]): their hits follow from the tiles&apos; reuse, not from a rate.</source>
        <translation>Копии этого сценария обращаются к L2 по адресам копируемых плиток ([workload.tiles]): их попадания следуют из повторного использования плиток, а не из доли.</translation>
    </message>
    <message>
        <location line="+33"/>
        <source>Your own kernel {name} (the Your kernel tab): the cubin gives its registers, shared memory and barriers</source>
        <translation>Ваше ядро {name} (вкладка «Ваше ядро»): регистры, разделяемую память и барьеры даёт cubin</translation>
    </message>
    <message>
        <location line="+16"/>
        <source>With a CUDA Graph the {gpu}&apos;s per-node gap applies: {value} µs ({source})</source>
        <translation>С CUDA Graph действует промежуток между узлами графа на {gpu}: {value} мкс ({source})</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>Empty: the {gpu}&apos;s launch gap, {value} µs ({source})</source>
        <translation>Пусто — промежуток между запусками на {gpu}: {value} мкс ({source})</translation>
    </message>
    <message>
        <location line="+6"/>
        <source>Empty: the {gpu}&apos;s period, {value} ms ({source})</source>
        <translation>Пусто — период на {gpu}: {value} мс ({source})</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>The {gpu}&apos;s round trip: {value} µs ({source})</source>
        <translation>Круговая задержка на {gpu}: {value} мкс ({source})</translation>
    </message>
    <message>
        <location line="+4"/>
        <source>One launch: no gaps; NVML reads the kernel over its own duration.</source>
        <translation>Один запуск: промежутков нет; NVML читает ядро за его собственное время.</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>{n} launches, {gap} µs apart, a {sync} µs round trip after every {every}; NVML window {period} ms</source>
        <translation>Запусков: {n}, через {gap} мкс, синхронизация с хостом {sync} мкс каждые {every}; окно NVML {period} мс</translation>
    </message>
    <message>
        <location line="+5"/>
        <source>{n} launches, {gap} µs apart; NVML window {period} ms</source>
        <translation>Запусков: {n}, через {gap} мкс; окно NVML {period} мс</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>Gap</source>
        <translation>Промежуток</translation>
    </message>
    <message>
        <location line="+0"/>
        <source>Round trip</source>
        <translation>Круговая задержка</translation>
    </message>
    <message>
        <location line="+0"/>
        <source>NVML period</source>
        <translation>Период NVML</translation>
    </message>
    <message>
        <location line="-147"/>
        <source>Reg&amp;isters / thread:</source>
        <translation>&amp;Регистров / поток:</translation>
    </message>
    <message>
        <location line="-84"/>
        <source>custom</source>
        <translation>своя</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>A loop body of its own, written in the scenario (a file, a lesson step or a GEMM&apos;s main loop), not one of the presets.</source>
        <translation>Собственное тело цикла, записанное в сценарии (файл, шаг урока или основной цикл GEMM), а не одна из заготовок.</translation>
    </message>
    <message>
        <location line="+80"/>
        <source>Bloc&amp;k (threads):</source>
        <translation>&amp;Блок (потоков):</translation>
    </message>
    <message>
        <location line="+4"/>
        <source>S&amp;tatic shared (B):</source>
        <translation>Стат&amp;ич. разделяемая (Б):</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>D&amp;ynamic shared (B):</source>
        <translation>&amp;Динамич. разделяемая (Б):</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Bytes passed as the third launch parameter &lt;&lt;&lt;grid, block, bytes&gt;&gt;&gt;.</source>
        <translation>Байты, переданные третьим параметром запуска &lt;&lt;&lt;grid, block, bytes&gt;&gt;&gt;.</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>&amp;Carveout (%):</source>
        <translation>Доля L1 под раздел&amp;яемую (%):</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Preferred share of L1/shared storage used as shared memory, 0–100; −1 lets the driver choose.</source>
        <translation>Желаемая доля памяти L1/shared, отводимая под разделяемую память, 0–100; −1 — выбирает драйвер.</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>B&amp;arriers / block:</source>
        <translation>Б&amp;арьеров / блок:</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Named barriers the kernel uses (1 for __syncthreads); limits blocks on CC 9.0 and newer.</source>
        <translation>Именованные барьеры ядра (1 для __syncthreads); ограничивают число блоков на CC 9.0 и новее.</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>&amp;Workload:</source>
        <translation>&amp;Нагрузка:</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>What every warp executes: a loop over a short body of loads, math and barriers.</source>
        <translation>Что выполняет каждый варп: цикл по короткому телу из загрузок, вычислений и барьеров.</translation>
    </message>
    <message>
        <location line="+4"/>
        <source>&amp;Scheduler:</source>
        <translation>П&amp;ланировщик:</translation>
    </message>
    <message>
        <location line="-3"/>
        <source>How many times each warp runs the body.</source>
        <translation>Сколько раз каждый варп выполняет тело цикла.</translation>
    </message>
    <message>
        <location line="+0"/>
        <source>Loo&amp;p iterations:</source>
        <translation>Итераций &amp;цикла:</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>L&amp;2 hit rate (%):</source>
        <translation>Попадания в &amp;L2 (%):</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Share of global loads served by L2 instead of HBM (the rest wait the full HBM latency).</source>
        <translation>Доля глобальных загрузок, обслуженных L2 вместо HBM (остальные ждут полную задержку HBM).</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>How each scheduler picks among its eligible warps.</source>
        <translation>Как каждый планировщик выбирает среди своих готовых варпов.</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Seed of the simulation&apos;s random choices (cache hits).</source>
        <translation>Зерно случайных решений симуляции (попадания в кэш).</translation>
    </message>
    <message>
        <location line="+0"/>
        <source>Ra&amp;ndom seed:</source>
        <translation>&amp;Зерно (seed):</translation>
    </message>
    <message>
        <location line="+69"/>
        <source>{name} (not a shipped scenario)</source>
        <translation>{name} (не из готовых сценариев)</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>(a scenario of its own)</source>
        <translation>(собственный сценарий)</translation>
    </message>
    <message>
        <location line="+4"/>
        <source>enter a value</source>
        <translation>введите значение</translation>
    </message>
    <message>
        <location line="+7"/>
        <source>Launched: {blocks} blocks × {tpb} threads = {threads} threads = {warps} warps</source>
        <translation>Запущено: блоков {blocks} × потоков {tpb} = потоков {threads} = варпов {warps}</translation>
    </message>
</context>
<context>
    <name>SmGridView</name>
    <message>
        <location filename="../../explorer/gui/explore/sm_grid.py" line="+200"/>
        <source>SM grid</source>
        <translation>Сетка SM</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>Every SM of the GPU; each cell is a warp slot coloured by its state at the current cycle.</source>
        <translation>Все SM GPU; каждая клетка — слот варпа, окрашенный по его состоянию в текущем такте.</translation>
    </message>
    <message>
        <location line="+5"/>
        <source>Simulating…</source>
        <translation>Симуляция…</translation>
    </message>
    <message>
        <location line="+104"/>
        <location line="+122"/>
        <location line="+14"/>
        <source>SM {n}</source>
        <translation>SM {n}</translation>
    </message>
    <message>
        <location line="-106"/>
        <source>Too small to draw every SM: enlarge the window.</source>
        <translation>Слишком мало места, чтобы нарисовать все SM: увеличьте окно.</translation>
    </message>
    <message>
        <location line="+121"/>
        <source>the SM numbers</source>
        <translation>номера SM</translation>
    </message>
    <message>
        <location line="+74"/>
        <source>&lt;b&gt;SM {sm}&lt;/b&gt;: {n} of {w} warp slots resident ({pct})</source>
        <translation>&lt;b&gt;SM {sm}&lt;/b&gt;: размещено слотов варпов {n} из {w} ({pct})</translation>
    </message>
    <message>
        <location line="+4"/>
        <source>Blocks here: {blocks}</source>
        <translation>Блоки здесь: {blocks}</translation>
    </message>
    <message>
        <location line="+11"/>
        <source>Block {b}, warp {k} of {n} (warp {g} of the grid)</source>
        <translation>Блок {b}, варп {k} из {n} (варп {g} сетки)</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>Slot {slot} · scheduler {sp}</source>
        <translation>Слот {slot} · планировщик {sp}</translation>
    </message>
    <message>
        <location line="+7"/>
        <source>&lt;i&gt;This long run&apos;s states of SM {sm} were re-simulated after it and are shown every {n} cycles.&lt;/i&gt;</source>
        <translation>&lt;i&gt;Состояния SM {sm} в этом долгом запуске пересчитаны после него и показаны выборочно (шаг в тактах: {n}).&lt;/i&gt;</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>&lt;i&gt;Click to show this SM in the timeline.&lt;/i&gt;</source>
        <translation>&lt;i&gt;Щёлкните, чтобы показать этот SM на временной диаграмме.&lt;/i&gt;</translation>
    </message>
</context>
<context>
    <name>SolPanel</name>
    <message>
        <location filename="../../explorer/gui/explore/sol_panel.py" line="+107"/>
        <source>What limits useful work right now?</source>
        <translation>Что сейчас сдерживает работу?</translation>
    </message>
    <message>
        <location line="+9"/>
        <source>now</source>
        <translation>сейчас</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>run</source>
        <translation>запуск</translation>
    </message>
    <message>
        <location line="+5"/>
        <source>Share of the unit&apos;s peak in the time window under the playback cursor.</source>
        <translation>Доля пика узла в окне времени под курсором воспроизведения.</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Share of the unit&apos;s peak over the whole run (the tick in the bar).</source>
        <translation>Доля пика узла за весь запуск (черта на полосе).</translation>
    </message>
    <message>
        <location line="+33"/>
        <source>Each unit&apos;s share of its peak in the window under the cursor, and over the whole run in brackets; the window&apos;s bottleneck in bold. The bars come back when the column has room.</source>
        <translation>Доля пика каждого узла в окне под курсором и, в скобках, за весь запуск; узкое место окна — жирным. Полосы вернутся, когда в колонке будет место.</translation>
    </message>
    <message>
        <location line="+40"/>
        <source>&lt;b&gt;{name}&lt;/b&gt;: {meaning}&lt;br&gt;Peak: {peak} — {source}&lt;br&gt;Whole run: {share} of the peak ({achieved}).</source>
        <translation>&lt;b&gt;{name}&lt;/b&gt;: {meaning}&lt;br&gt;Пик: {peak} — {source}&lt;br&gt;За весь запуск: {share} пика ({achieved}).</translation>
    </message>
    <message>
        <location line="+11"/>
        <source>Whole run: {sentence}</source>
        <translation>За весь запуск: {sentence}</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Whole run: {sentence}.</source>
        <translation>За весь запуск: {sentence}.</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>The bottleneck is the unit with the highest share of its peak when that share is at least {limit} (Nsight Compute&apos;s Speed-of-Light rule); below it, no unit is near its peak: not enough independent work is in flight (latency).</source>
        <translation>Узкое место — узел с наибольшей долей своего пика, если эта доля не меньше {limit} (правило «скорости света», Speed of Light, из Nsight Compute); ниже ни один узел не близок к пику: в полёте слишком мало независимой работы (задержка).</translation>
    </message>
    <message>
        <location line="+14"/>
        <source>Sectors hit: {rate} of {n} looked up (from the addresses the warps touched).</source>
        <translation>Попадания секторов: {rate} из {n} запрошенных (по адресам, к которым обращались варпы).</translation>
    </message>
    <message>
        <location line="+60"/>
        <source>{unit} {now} ({run})</source>
        <translation>{unit} {now} ({run})</translation>
    </message>
    <message>
        <location line="+4"/>
        <source>{units}: {share}</source>
        <translation>{units}: {share}</translation>
    </message>
    <message>
        <location line="+24"/>
        <source>Right now (cycles {a}–{b}): {unit} at {share} of its peak is the limit.</source>
        <translation>Сейчас (такты {a}–{b}): предел — {unit} на {share} своего пика.</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>Now: {unit} at {share} of its peak is the limit.</source>
        <translation>Сейчас предел — {unit} на {share} своего пика.</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>Right now (cycles {a}–{b}): no unit at {limit} of its peak or more — not enough work in flight (latency).</source>
        <translation>Сейчас (такты {a}–{b}): ни один узел не достигает {limit} своего пика — в полёте мало работы (задержка).</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>Now: no unit at {limit} of its peak (latency).</source>
        <translation>Сейчас ни один узел не достигает {limit} пика (задержка).</translation>
    </message>
</context>
<context>
    <name>SolTexts</name>
    <message>
        <location filename="../../explorer/texts/bottleneck.py" line="+26"/>
        <source>Issue slots</source>
        <translation>Слоты выдачи</translation>
    </message>
    <message>
        <location line="+0"/>
        <source>FP32</source>
        <translation>FP32</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>INT32</source>
        <translation>INT32</translation>
    </message>
    <message>
        <location line="+0"/>
        <source>SFU</source>
        <translation>SFU</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Tensor Cores</source>
        <translation>Тензорные ядра</translation>
    </message>
    <message>
        <location line="+0"/>
        <source>LSU</source>
        <translation>LSU</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>L1</source>
        <translation>L1</translation>
    </message>
    <message>
        <location line="+0"/>
        <source>Shared memory</source>
        <translation>Разделяемая память</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>L2</source>
        <translation>L2</translation>
    </message>
    <message>
        <location line="+0"/>
        <source>DRAM</source>
        <translation>DRAM</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>latency</source>
        <translation>задержка</translation>
    </message>
    <message>
        <location filename="../../explorer/gui/explore/sol_texts.py" line="+28"/>
        <source>issue</source>
        <translation>выдача</translation>
    </message>
    <message>
        <location line="+0"/>
        <source>fp32</source>
        <translation>fp32</translation>
    </message>
    <message>
        <location line="+0"/>
        <source>int</source>
        <translation>int</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>sfu</source>
        <translation>sfu</translation>
    </message>
    <message>
        <location line="+0"/>
        <source>tensor</source>
        <translation>тензор</translation>
    </message>
    <message>
        <location line="+0"/>
        <source>lsu</source>
        <translation>lsu</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>l1</source>
        <translation>l1</translation>
    </message>
    <message>
        <location line="+0"/>
        <source>shared</source>
        <translation>раздел.</translation>
    </message>
    <message>
        <location line="+0"/>
        <source>l2</source>
        <translation>l2</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>dram</source>
        <translation>dram</translation>
    </message>
    <message>
        <location line="+0"/>
        <source>latency</source>
        <comment>a short row name</comment>
        <translation>задерж.</translation>
    </message>
    <message>
        <location filename="../../explorer/texts/names.py" line="-62"/>
        <source>The warp schedulers: each issues at most one warp-instruction per cycle.</source>
        <translation>Планировщики варпов: каждый выдаёт не больше одной инструкции варпа за такт.</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>FP32 lanes: fused multiply-adds and other single-precision arithmetic.</source>
        <translation>Линии FP32: совмещённые умножения-сложения и прочая арифметика одинарной точности.</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>INT32 lanes: integer arithmetic, address computation, logic.</source>
        <translation>Линии INT32: целочисленная арифметика, вычисление адресов, логика.</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Special-function units (MUFU): exp, log, sin, rsqrt and the like.</source>
        <translation>Узлы специальных функций (MUFU): exp, log, sin, rsqrt и подобные.</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Tensor Cores: matrix multiply-accumulate (MMA) on small tiles.</source>
        <translation>Тензорные ядра: матричное умножение с накоплением (MMA) на небольших плитках.</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Load/store units: issue every global and shared-memory access to L1TEX.</source>
        <translation>Узлы загрузки/сохранения: передают в L1TEX каждый доступ к глобальной и разделяемой памяти.</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>The SM&apos;s L1 data path for global memory: 128 bytes per cycle.</source>
        <translation>Тракт данных L1 в SM для глобальной памяти: 128 байт за такт.</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Shared-memory banks: 32 banks x 4 bytes per cycle; conflicts cost extra cycles.</source>
        <translation>Банки разделяемой памяти: 32 банка x 4 байта за такт; конфликты стоят лишних тактов.</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>The L2 cache&apos;s bandwidth to the SMs, shared by the whole GPU.</source>
        <translation>Пропускная способность кэша L2 к SM, одна на весь GPU.</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Device memory (HBM/GDDR): the datasheet bandwidth.</source>
        <translation>Память устройства (HBM/GDDR): пропускная способность из спецификации.</translation>
    </message>
    <message>
        <location filename="../../explorer/gui/common/core_texts.py" line="+16"/>
        <source>B/s</source>
        <translation>Б/с</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>FLOP/s</source>
        <translation>ФЛОП/с</translation>
    </message>
    <message>
        <location line="+0"/>
        <source>ops/s</source>
        <translation>оп./с</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>warp-instructions/s</source>
        <translation>инструкций варпов/с</translation>
    </message>
    <message>
        <location line="-3"/>
        <source>P</source>
        <translation>П</translation>
    </message>
    <message>
        <location line="+0"/>
        <source>T</source>
        <translation>Т</translation>
    </message>
    <message>
        <location line="+0"/>
        <source>G</source>
        <translation>Г</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>M</source>
        <translation>М</translation>
    </message>
    <message>
        <location line="+0"/>
        <source>k</source>
        <translation>к</translation>
    </message>
    <message>
        <location filename="../../explorer/texts/bottleneck.py" line="+33"/>
        <source>the kernel moves {per} B per FMA to or from device memory; more reuse (tiling, caching) would help</source>
        <translation>ядро перемещает {per} Б на каждую FMA в память устройства и из неё; поможет повторное использование данных (плитки, кэширование)</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>the kernel moves {mb} MB to or from device memory; more reuse (tiling, caching) would help</source>
        <translation>ядро перемещает {mb} МБ в память устройства и из неё; поможет повторное использование данных (плитки, кэширование)</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>every L1 miss crosses L2 ({mb} MB); more reuse in L1 or shared memory would help</source>
        <translation>каждый промах L1 проходит через L2 ({mb} МБ); поможет повторное использование в L1 или разделяемой памяти</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>global accesses keep the SMs&apos; L1 data paths busy {busy}; fewer or better-coalesced accesses would help</source>
        <translation>глобальные доступы занимают тракты данных L1 в SM {busy}; помогут меньшее число доступов или лучшее их объединение</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>shared-memory wavefronts (bank conflicts multiply them) keep the banks busy {busy}; fewer conflicts or wider accesses would help</source>
        <translation>волны доступа к разделяемой памяти (конфликты банков их умножают) занимают банки {busy}; помогут меньше конфликтов или более широкие доступы</translation>
    </message>
    <message>
        <location line="+4"/>
        <source>the schedulers issue {busy}; {label} is at {pct}% too (here one {pipe} instruction per scheduler per cycle is both peaks); only fewer instructions per result would help, not more warps</source>
        <translation>планировщики выдают инструкции {busy}; {label} тоже на {pct}% (здесь одна инструкция {pipe} на планировщик за такт — это оба пика); поможет только меньше инструкций на результат, а не больше варпов</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>the schedulers issue {busy}; only fewer instructions per result would help, not more warps</source>
        <translation>планировщики выдают инструкции {busy}; поможет только меньше инструкций на результат, а не больше варпов</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>FMA lanes are busy {busy}; this is the arithmetic peak for FP32</source>
        <translation>линии FMA заняты {busy}; это арифметический пик FP32</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>the Tensor Cores are busy {busy}; everything else waits on the MMAs</source>
        <translation>тензорные ядра заняты {busy}; всё остальное ждёт MMA</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>integer instructions keep the INT32 lanes busy {busy}</source>
        <translation>целочисленные инструкции занимают линии INT32 {busy}</translation>
    </message>
    <message>
        <location line="-11"/>
        <source>memory instructions queue at the load/store units; wider (vector) accesses move the same bytes in fewer instructions</source>
        <translation>инструкции памяти стоят в очереди к узлам загрузки/сохранения; более широкие (векторные) доступы перемещают те же байты меньшим числом инструкций</translation>
    </message>
    <message>
        <location line="+9"/>
        <source>special functions (exp, rsqrt...) run on 4 lanes per scheduler; cheaper math would help</source>
        <translation>специальные функции (exp, rsqrt...) выполняются на 4 линиях на планировщик; поможет более дешёвая математика</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>SMs sit idle {pct}% of the time (too few blocks, or a last wave on few SMs); more or smaller blocks would help</source>
        <translation>SM простаивают {pct}% времени (слишком мало блоков или последняя волна на немногих SM); помогут больше блоков или блоки поменьше</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>SMs sit idle {pct}% of the time (too few blocks, or a last wave on few SMs); on the SMs with work, {label} at {share}% of the peak; more or smaller blocks would help</source>
        <translation>SM простаивают {pct}% времени (слишком мало блоков или последняя волна на немногих SM); на SM, у которых есть работа, {label} на {share}% пика; помогут больше блоков или блоки поменьше</translation>
    </message>
    <message>
        <location line="-48"/>
        <source>wait on dependent arithmetic (a fixed latency each); more independent instructions (ILP) or warps would help</source>
        <translation>ждут зависимую арифметику (фиксированная задержка у каждой); помогут больше независимых инструкций (ILP) или варпов</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>wait for shared-memory or special-function results; more independent work would help</source>
        <translation>ждут результатов разделяемой памяти или специальных функций; поможет больше независимой работы</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>wait at __syncthreads for their block&apos;s slowest warp; smaller or better-balanced phases would help</source>
        <translation>ждут на __syncthreads самый медленный варп своего блока; помогут фазы поменьше или лучше сбалансированные</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>wait for their stores to complete before they can exit</source>
        <translation>ждут завершения своих сохранений, прежде чем выйти</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>find their pipe busy; spreading work over more units would help</source>
        <translation>застают свой конвейер занятым; поможет распределить работу по большему числу узлов</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>find the shared-memory queue full</source>
        <translation>застают очередь разделяемой памяти полной</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>find the global-memory queue full</source>
        <translation>застают очередь глобальной памяти полной</translation>
    </message>
    <message>
        <location line="+5"/>
        <source>are ready but wait their turn at the scheduler</source>
        <translation>готовы, но ждут своей очереди у планировщика</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>issue whenever they can, yet too few are ready</source>
        <translation>выдают инструкции, когда могут, но готовых слишком мало</translation>
    </message>
    <message>
        <location line="-3"/>
        <source>wait for their asynchronous MMAs, with too few warpgroups to fill the Tensor Cores</source>
        <translation>ждут своих асинхронных MMA, а групп варпов слишком мало, чтобы заполнить тензорные ядра</translation>
    </message>
    <message>
        <location line="-2"/>
        <source>wait on their stages&apos; mbarriers (consumers for TMA copies, producers for free stages); more stages or more bytes in flight would help</source>
        <translation>ждут mbarrier своих стадий (потребители — копий TMA, производители — свободных стадий); помогут больше стадий или больше байтов в полёте</translation>
    </message>
    <message>
        <location line="-16"/>
        <source>nearly every cycle</source>
        <translation>почти каждый такт</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>in most cycles</source>
        <translation>в большинстве тактов</translation>
    </message>
    <message>
        <location line="+55"/>
        <source>{warps} warps each wait ~{cycles} cycles for {level}; more bytes in flight per SM (more warps, or more independent loads per warp) would help</source>
        <translation>каждый из {warps} варпов ждёт {level} ~{cycles} тактов; помогут больше байтов в полёте на SM (больше варпов или больше независимых загрузок на варп)</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>{warps} warps mostly {state}</source>
        <translation>{warps} варпов в основном {state}</translation>
    </message>
    <message>
        <location line="+4"/>
        <source>no unit above {pct} ({unit})</source>
        <translation>ни один узел не выше {pct} ({unit})</translation>
    </message>
    <message>
        <location line="-1"/>
        <source>{unit} at {pct} of {peak}</source>
        <translation>{unit} на {pct} от {peak}</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>{head}: {reason}</source>
        <translation>{head}: {reason}</translation>
    </message>
</context>
<context>
    <name>StreamStrip</name>
    <message>
        <location filename="../../explorer/gui/explore/stream_strip.py" line="+292"/>
        <source>NVML utilization</source>
        <translation>Загрузка NVML</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>SM active</source>
        <translation>SM активны</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Occupancy</source>
        <translation>Заполняемость</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Issue slots</source>
        <translation>Слоты выдачи</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>NVML&apos;s “GPU utilization”: the share of time in which at least one kernel runs, whatever it does on the GPU.</source>
        <translation>«Загрузка GPU» в NVML: доля времени, когда работает хотя бы одно ядро, что бы оно ни делало на GPU.</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>SM active (GPM SM_UTIL, DCGM): the share of SM-time with at least one warp resident on the SM.</source>
        <translation>SM активны (SM active; GPM SM_UTIL, DCGM): доля времени SM, когда на SM размещён хотя бы один варп.</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>Achieved occupancy over the stream (GPM SM_OCCUPANCY): resident warps over all warp slots, averaged over the whole span, gaps included.</source>
        <translation>Достигнутая заполняемость за весь поток (GPM SM_OCCUPANCY): размещённые варпы относительно всех слотов варпов, в среднем за весь интервал, промежутки включительно.</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>Issue slots used: warp-instructions issued over every scheduler&apos;s issue slots in the span, the work actually done.</source>
        <translation>Использованные слоты выдачи: выданные варп-инструкции относительно слотов выдачи всех планировщиков за интервал — реально сделанная работа.</translation>
    </message>
    <message>
        <location line="+43"/>
        <source>graph node|graph nodes</source>
        <translation>узел графа|узла графа|узлов графа</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>launch|launches</source>
        <translation>запуск|запуска|запусков</translation>
    </message>
    <message>
        <location line="+4"/>
        <source>· a {rt} host sync every {k}</source>
        <translation>· синхронизация с хостом {rt} каждые {k}</translation>
    </message>
    <message>
        <location line="+6"/>
        <source>&lt;b&gt;Stream&lt;/b&gt; — {kernels} of {kernel}, {gap} apart{sync} · {span} · NVML window {period}</source>
        <translation>&lt;b&gt;Поток&lt;/b&gt; — {kernels} по {kernel}, через {gap}{sync} · {span} · окно NVML {period}</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>&lt;b&gt;Stream&lt;/b&gt; — {kernels} of {kernel}, {gap} apart · {span}</source>
        <translation>&lt;b&gt;Поток&lt;/b&gt; — {kernels} по {kernel}, через {gap} · {span}</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>&lt;b&gt;Stream&lt;/b&gt; — {kernels}</source>
        <translation>&lt;b&gt;Поток&lt;/b&gt; — {kernels}</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>The stream is shorter than one NVML window ({period}): NVML is read over the stream&apos;s span.</source>
        <translation>Поток короче одного окна NVML ({period}): загрузка NVML считается за время потока.</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>{n} complete NVML windows of {period} read {lo} to {hi}.</source>
        <translation>{n} полных окон NVML по {period} показывают от {lo} до {hi}.</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>The metrics panel reads one kernel over its own duration (100% by definition); this strip reads the stream, gaps included.</source>
        <translation>Панель метрик читает одно ядро за его собственное время (100% по определению); эта полоса читает весь поток, вместе с промежутками.</translation>
    </message>
</context>
<context>
    <name>StreamTimeline</name>
    <message>
        <location line="-297"/>
        <source>Kernels of the stream as bars, the gaps between them empty, NVML&apos;s sample windows shaded behind them; wheel: zoom, drag: pan, double click: the whole stream.</source>
        <translation>Ядра потока — полосы, промежутки между ними пусты, окна выборки NVML затенены позади; колесо — масштаб, перетаскивание — сдвиг, двойной щелчок — весь поток.</translation>
    </message>
    <message>
        <location line="+188"/>
        <source>kernel {i} of {n}: {start} to {end}</source>
        <translation>ядро {i} из {n}: от {start} до {end}</translation>
    </message>
    <message>
        <location line="+4"/>
        <source>the gap after kernel {i}: no kernel runs</source>
        <translation>промежуток после ядра {i}: ни одно ядро не работает</translation>
    </message>
    <message>
        <location line="+4"/>
        <source>NVML window {k}: reads {pct}</source>
        <translation>окно NVML {k}: показывает {pct}</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>NVML window {k}: the stream ends before it does</source>
        <translation>окно NVML {k}: поток кончается раньше окна</translation>
    </message>
    <message>
        <location line="+4"/>
        <source>Each pixel column covers about {n} kernels: its height is the share of its time a kernel runs.</source>
        <translation>Каждый столбец пикселей охватывает около {n} ядер: его высота — доля его времени, когда работает ядро.</translation>
    </message>
</context>
<context>
    <name>ThemedPlot</name>
    <message>
        <location filename="../../explorer/gui/common/plots.py" line="+135"/>
        <source>the numbers of the {side} axis</source>
        <translation>числа оси ({side})</translation>
    </message>
</context>
<context>
    <name>TileGridView</name>
    <message>
        <location filename="../../explorer/gui/gemm/tiles.py" line="+202"/>
        <source>No valid GEMM yet</source>
        <translation>Корректного GEMM пока нет</translation>
    </message>
    <message>
        <location line="+75"/>
        <source>N = {n} → {cols} tiles of {bn}</source>
        <translation>N = {n} → плиток: {cols} по {bn}</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>(stretched: not to scale)</source>
        <translation>(растянуто: не в масштабе)</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>M = {m} ↓ {rows} tiles of {bm}</source>
        <translation>M = {m} ↓ плиток: {rows} по {bm}</translation>
    </message>
    <message>
        <location line="+16"/>
        <source>&lt;b&gt;Tile {t}&lt;/b&gt;: C rows {r0}–{r1}, columns {c0}–{c1}&lt;br&gt;CTA blockIdx = ({col}, {row}) · runs on &lt;b&gt;SM {sm}&lt;/b&gt; (CTA slot {slot})&lt;br&gt;&lt;b&gt;wave {w} of {waves}&lt;/b&gt;</source>
        <translation>&lt;b&gt;Плитка {t}&lt;/b&gt;: строки C {r0}–{r1}, столбцы {c0}–{c1}&lt;br&gt;CTA blockIdx = ({col}, {row}) · выполняется на &lt;b&gt;SM {sm}&lt;/b&gt; (слот CTA {slot})&lt;br&gt;&lt;b&gt;волна {w} из {waves}&lt;/b&gt;</translation>
    </message>
</context>
<context>
    <name>TilePanel</name>
    <message>
        <location line="+118"/>
        <source>Colour by wave</source>
        <translation>Цвет по волне</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Colour by SM</source>
        <translation>Цвет по SM</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Colour each tile by the wave it runs in, or by the SM that computes it.</source>
        <translation>Окрасить каждую плитку по волне, в которой она выполняется, или по SM, который её вычисляет.</translation>
    </message>
    <message>
        <location line="+8"/>
        <source>First wave</source>
        <translation>Первая волна</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>Previous wave</source>
        <translation>Предыдущая волна</translation>
    </message>
    <message>
        <location line="+1"/>
        <location line="+98"/>
        <source>▶ Play waves</source>
        <translation>▶ Волны по очереди</translation>
    </message>
    <message>
        <location line="-95"/>
        <source>Show the waves one after another, as the GPU runs them.</source>
        <translation>Показывать волны одну за другой, как их выполняет GPU.</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>Next wave</source>
        <translation>Следующая волна</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>All waves</source>
        <translation>Все волны</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Show every tile coloured at once.</source>
        <translation>Показать сразу все плитки в цвете.</translation>
    </message>
    <message>
        <location line="+5"/>
        <source>The wave to show</source>
        <translation>Какую волну показать</translation>
    </message>
    <message>
        <location line="+41"/>
        <source>&lt;b&gt;Output matrix C&lt;/b&gt; — {tiles} tiles ({tm} × {tn}) of {bm} × {bn} · one CTA per tile</source>
        <translation>&lt;b&gt;Выходная матрица C&lt;/b&gt; — плиток {tiles} ({tm} × {tn}) размером {bm} × {bn} · один CTA на плитку</translation>
    </message>
    <message>
        <location line="+47"/>
        <source>⏸ Pause</source>
        <translation>⏸ Пауза</translation>
    </message>
    <message>
        <location line="+26"/>
        <source>All {waves} wave(s) at once: {slots} tiles run together ({sms} SMs × {b} CTA(s) each).</source>
        <translation>Все волны ({waves}) сразу: одновременно выполняется до {slots} плиток ({sms} SM × {b} CTA на каждом).</translation>
    </message>
    <message>
        <location line="+6"/>
        <source>Wave {w} of {waves}: {tiles} tile(s) on {busy} SM(s)</source>
        <translation>Волна {w} из {waves}: плиток {tiles} на SM: {busy}</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>; {idle} SM(s) have nothing to do.</source>
        <translation>; SM без работы: {idle}.</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>; {free} of {slots} CTA slots are empty.</source>
        <translation>; пусто {free} из {slots} слотов CTA.</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>: every CTA slot busy.</source>
        <translation>: все слоты CTA заняты.</translation>
    </message>
    <message>
        <location line="+2"/>
        <source> Too many tiles to draw one by one: every cell is a sample of the tiles around it.</source>
        <translation> Плиток слишком много, чтобы рисовать каждую: клетка показывает выборку из соседних плиток.</translation>
    </message>
    <message>
        <location line="+4"/>
        <source>wave {n}</source>
        <translation>волна {n}</translation>
    </message>
    <message>
        <location line="+3"/>
        <source> … (the colours repeat every {n} waves; a tile big enough shows its wave number, hover for more)</source>
        <translation> … (цвета повторяются каждые {n} волн; достаточно большая плитка показывает номер волны, наведите курсор для подробностей)</translation>
    </message>
    <message>
        <location line="+1"/>
        <source> (a tile big enough shows its wave number; hover for more)</source>
        <translation> (достаточно большая плитка показывает номер волны; наведите курсор для подробностей)</translation>
    </message>
    <message>
        <location line="+6"/>
        <source>&lt;span style=&quot;color:{c0}&quot;&gt;■&lt;/span&gt;&amp;nbsp;SM 0 → &lt;span style=&quot;color:{c1}&quot;&gt;■&lt;/span&gt;&amp;nbsp;SM {last}: the number in a tile is the SM that computes it.</source>
        <translation>&lt;span style=&quot;color:{c0}&quot;&gt;■&lt;/span&gt;&amp;nbsp;SM 0 → &lt;span style=&quot;color:{c1}&quot;&gt;■&lt;/span&gt;&amp;nbsp;SM {last}: число в плитке — номер SM, который её вычисляет.</translation>
    </message>
</context>
<context>
    <name>TimeSplitView</name>
    <message>
        <location filename="../../explorer/gui/gemm/charts.py" line="+88"/>
        <source>Tensor Cores beside everything else</source>
        <translation>Тензорные ядра и всё остальное</translation>
    </message>
    <message>
        <location line="+35"/>
        <source>Tensor Core math</source>
        <translation>вычисления на тензорных ядрах</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>FP32 math (CUDA cores)</source>
        <translation>вычисления FP32 (ядра CUDA)</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>instruction issue</source>
        <translation>выдача инструкций</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>shared-memory bandwidth</source>
        <translation>пропускная способность разделяемой памяти</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>HBM bandwidth</source>
        <translation>пропускная способность HBM</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>L2 bandwidth</source>
        <translation>пропускная способность L2</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>latency (waves one after another)</source>
        <translation>задержка (волны одна за другой)</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>pipeline fill and epilogue</source>
        <translation>заполнение конвейера и эпилог</translation>
    </message>
    <message>
        <location line="+5"/>
        <source>pipeline fill</source>
        <translation>заполнение конвейера</translation>
    </message>
    <message>
        <location line="+4"/>
        <source>MMA (Tensor Cores)</source>
        <translation>MMA (тензорные ядра)</translation>
    </message>
    <message>
        <location line="+0"/>
        <source>FFMA (FP32 math)</source>
        <translation>FFMA (вычисления FP32)</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>global → shared copies</source>
        <translation>копирование global → shared</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>shared → register loads</source>
        <translation>загрузки shared → регистры</translation>
    </message>
    <message>
        <location line="+0"/>
        <source>barriers</source>
        <translation>барьеры</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>address math and loop</source>
        <translation>адресная арифметика и цикл</translation>
    </message>
    <message>
        <location line="+50"/>
        <source>the bound (together)</source>
        <translation>ограничение (вместе)</translation>
    </message>
    <message>
        <location line="-57"/>
        <location line="+7"/>
        <source>epilogue</source>
        <translation>эпилог</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>MMA fences and waits</source>
        <translation>барьеры и ожидания MMA</translation>
    </message>
    <message>
        <location line="+5"/>
        <source>Tensor Cores</source>
        <translation>тензорные ядра</translation>
    </message>
    <message>
        <location line="+0"/>
        <source>FP32 pipes</source>
        <translation>конвейеры FP32</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>everything else</source>
        <translation>всё остальное</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>Predicted {total}: the {unit} need {math} at their peak ({share} of the time); the other {other} go to moving data, waiting and the last wave. Tensor Core instructions are {ishare} of all warp-instructions ({mma} of {total_i}).</source>
        <translation>Прогноз {total}: на {unit} при пиковой скорости приходится {math} ({share} времени); остальные {other} уходят на перемещение данных, ожидание и последнюю волну. Инструкции тензорных ядер — {ishare} всех инструкций варпов ({mma} из {total_i}).</translation>
    </message>
    <message>
        <location line="+9"/>
        <source>warp-instructions</source>
        <translation>инструкций варпов</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Warp-instructions: </source>
        <translation>Инструкции варпов: </translation>
    </message>
    <message>
        <location line="+2"/>
        <source>&lt;b&gt;What limits the time&lt;/b&gt; (the model&apos;s terms; the largest is the bound):</source>
        <translation>&lt;b&gt;Что ограничивает время&lt;/b&gt; (слагаемые модели; наибольшее — ограничение):</translation>
    </message>
    <message>
        <location line="+7"/>
        <source>&lt;b&gt;+ not hidden by the main loop&lt;/b&gt; (added to the largest term):</source>
        <translation>&lt;b&gt;+ не скрыто основным циклом&lt;/b&gt; (добавляется к наибольшему слагаемому):</translation>
    </message>
    <message>
        <location line="+20"/>
        <source>the bound</source>
        <translation>ограничение</translation>
    </message>
</context>
<context>
    <name>TimelineView</name>
    <message>
        <location filename="../../explorer/gui/explore/timeline.py" line="+152"/>
        <location line="+15"/>
        <source>block {b}</source>
        <translation>блок {b}</translation>
    </message>
    <message>
        <location line="+17"/>
        <source>SM {sm}&apos;s warp states were not kept for this long run; re-simulating this SM…</source>
        <translation>Состояния варпов SM {sm} для этого длинного прогона не сохранялись; SM симулируется заново…</translation>
    </message>
    <message>
        <location line="+13"/>
        <source>SM {sm} ran no warp in this run.</source>
        <translation>SM {sm} не выполнял варпов в этом прогоне.</translation>
    </message>
    <message>
        <location line="+22"/>
        <source>sched {k}</source>
        <translation>план. {k}</translation>
    </message>
    <message>
        <location line="+41"/>
        <source>the schedulers&apos; names</source>
        <translation>имена планировщиков</translation>
    </message>
    <message>
        <location line="+9"/>
        <source>SM {sm}: {n} of {w} warp slots, by scheduler</source>
        <translation>SM {sm}: слотов варпов {n} из {w}, по планировщикам</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>Timeline of SM {sm}: its {n} busy warp slots (of {w}), grouped by scheduler</source>
        <translation>Временная диаграмма SM {sm}: занятые слоты варпов ({n} из {w}) по планировщикам</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>Timeline of SM {sm}: each row is a warp slot, grouped by scheduler</source>
        <translation>Временная диаграмма SM {sm}: каждая строка — слот варпа, по планировщикам</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Timeline of SM {sm}</source>
        <translation>Временная диаграмма SM {sm}</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>a line along a row&apos;s top: fewer than 32 lanes active</source>
        <translation>черта по верху строки: активно меньше 32 линий</translation>
    </message>
    <message>
        <location line="+64"/>
        <source>cycle</source>
        <translation>такт</translation>
    </message>
    <message>
        <location line="+49"/>
        <source>SM {sm} · slot {slot} (scheduler {sp}) · cycle {cycle}</source>
        <translation>SM {sm} · слот {slot} (планировщик {sp}) · такт {cycle}</translation>
    </message>
    <message>
        <location line="+6"/>
        <source>Partially active warp: its next instruction issues with {n} of 32 lanes (lanes {mask}); marked by a line along the row&apos;s top.</source>
        <translation>Частично активный варп: его следующую инструкцию выдают {n} из 32 линий (линии {mask}); отмечен чертой по верху строки.</translation>
    </message>
    <message>
        <location line="+4"/>
        <source>A line along the row&apos;s top: in some of these cycles the warp&apos;s next instruction issues with fewer than 32 lanes.</source>
        <translation>Черта по верху строки: в некоторых из этих тактов следующую инструкцию варпа выдают меньше 32 линий.</translation>
    </message>
    <message>
        <location line="+4"/>
        <source>Zoomed out: each column covers {n} cycles and shows its most important state (issued &gt; eligible &gt; stalls &gt; memory wait &gt; empty). Zoom in (mouse wheel) for single cycles.</source>
        <translation>Мелкий масштаб: тактов в столбце — {n}, показано самое важное состояние (выдача &gt; готов &gt; простои &gt; ожидание памяти &gt; пусто). Увеличьте масштаб (колесо мыши), чтобы видеть отдельные такты.</translation>
    </message>
</context>
<context>
    <name>TransportBar</name>
    <message>
        <location filename="../../explorer/gui/explore/transport.py" line="+78"/>
        <source>Go to the first cycle (Home)</source>
        <translation>К первому такту (Home)</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Back 100 cycles (Shift+Left)</source>
        <translation>Назад на 100 тактов (Shift+Left)</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Back one cycle (Left)</source>
        <translation>Назад на один такт (Left)</translation>
    </message>
    <message>
        <location line="+1"/>
        <location line="+60"/>
        <source>▶ Play</source>
        <translation>▶ Пуск</translation>
    </message>
    <message>
        <location line="-60"/>
        <source>Play or pause (Space)</source>
        <translation>Пуск или пауза (Space)</translation>
    </message>
    <message>
        <location line="+1"/>
        <location line="+59"/>
        <source>▮▮ Pause</source>
        <translation>▮▮ Пауза</translation>
    </message>
    <message>
        <location line="-58"/>
        <source>Forward one cycle (Right)</source>
        <translation>Вперёд на один такт (Right)</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Forward 100 cycles (Shift+Right)</source>
        <translation>Вперёд на 100 тактов (Shift+Right)</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Go to the last cycle (End)</source>
        <translation>К последнему такту (End)</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>Drag to scrub through the run.</source>
        <translation>Перетащите, чтобы пролистать прогон.</translation>
    </message>
    <message>
        <location line="+6"/>
        <source>cycle 88,888,888 of 88,888,888</source>
        <translation>такт 88 888 888 из 88 888 888</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Speed:</source>
        <translation>Скорость:</translation>
    </message>
    <message>
        <location line="+4"/>
        <source>{n} cycles/s</source>
        <translation>{n} тактов/с</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>Simulated cycles per second of playback.</source>
        <translation>Симулированных тактов в секунду воспроизведения.</translation>
    </message>
    <message>
        <location line="+37"/>
        <source>cycle {c} of {n}</source>
        <translation>такт {c} из {n}</translation>
    </message>
</context>
<context>
    <name>UnitStrip</name>
    <message>
        <location filename="../../explorer/gui/explore/unit_strip.py" line="+162"/>
        <source>the units&apos; names</source>
        <translation>названия узлов</translation>
    </message>
    <message>
        <location line="+43"/>
        <source>Unit use: each unit&apos;s share of its peak over time · red bar = the bottleneck</source>
        <translation>Загрузка узлов: доля пика каждого узла во времени · красная черта — узкое место</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Unit use over time · red bar = bottleneck</source>
        <translation>Загрузка узлов во времени · красная черта — узкое место</translation>
    </message>
    <message>
        <location line="+0"/>
        <source>Unit use</source>
        <translation>Загрузка узлов</translation>
    </message>
    <message>
        <location line="+35"/>
        <source>Bottleneck: {unit}</source>
        <translation>Узкое место: {unit}</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>No unit at {limit} of its peak or more: latency (not enough work in flight).</source>
        <translation>Ни один узел не достигает {limit} своего пика: задержка (в полёте мало работы).</translation>
    </message>
    <message>
        <location line="+8"/>
        <source>&lt;b&gt;{unit}&lt;/b&gt;: {share} of its peak</source>
        <translation>&lt;b&gt;{unit}&lt;/b&gt;: {share} своего пика</translation>
    </message>
    <message>
        <location line="+6"/>
        <source>Cycles {a}–{b} (one window of {n} cycles)</source>
        <translation>Такты {a}–{b} (одно окно из {n} тактов)</translation>
    </message>
</context>
<context>
    <name>Units</name>
    <message>
        <location filename="../../explorer/gui/common/core_texts.py" line="-8"/>
        <source>B</source>
        <translation>Б</translation>
    </message>
    <message>
        <location line="+0"/>
        <source>kB</source>
        <translation>кБ</translation>
    </message>
    <message>
        <location line="+0"/>
        <source>MB</source>
        <translation>МБ</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>GB</source>
        <translation>ГБ</translation>
    </message>
    <message>
        <location line="+0"/>
        <source>TB</source>
        <translation>ТБ</translation>
    </message>
    <message>
        <location line="+0"/>
        <source>KiB</source>
        <translation>КиБ</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>MiB</source>
        <translation>МиБ</translation>
    </message>
    <message>
        <location line="+0"/>
        <source>GiB</source>
        <translation>ГиБ</translation>
    </message>
    <message>
        <location line="+0"/>
        <source>TiB</source>
        <translation>ТиБ</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>s</source>
        <translation>с</translation>
    </message>
    <message>
        <location line="+0"/>
        <source>ms</source>
        <translation>мс</translation>
    </message>
    <message>
        <location line="+0"/>
        <source>µs</source>
        <translation>мкс</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>ns</source>
        <translation>нс</translation>
    </message>
    <message>
        <location line="+0"/>
        <source>GB/s</source>
        <translation>ГБ/с</translation>
    </message>
    <message>
        <location line="+0"/>
        <source>TB/s</source>
        <translation>ТБ/с</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>pt</source>
        <translation>п. п.</translation>
    </message>
</context>
<context>
    <name>WarpStates</name>
    <message>
        <location filename="../../explorer/gui/common/state_colors.py" line="+91"/>
        <source>Empty slot</source>
        <translation>Пустой слот</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Issued (selected)</source>
        <translation>Выдаёт инструкцию (selected)</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Eligible, not picked (not_selected)</source>
        <translation>Готов, но не выбран (not_selected)</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Arithmetic dependency (wait)</source>
        <translation>Зависимость от арифметики (wait)</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Shared memory / SFU (short_scoreboard)</source>
        <translation>Разделяемая память / SFU (short_scoreboard)</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Global memory (long_scoreboard)</source>
        <translation>Глобальная память (long_scoreboard)</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Barrier (barrier)</source>
        <translation>Барьер (barrier)</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Math pipe busy (math_pipe_throttle)</source>
        <translation>Вычислительный конвейер занят (math_pipe_throttle)</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Shared-memory queue full (mio_throttle)</source>
        <translation>Очередь разделяемой памяти полна (mio_throttle)</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Global-memory queue full (lg_throttle)</source>
        <translation>Очередь глобальной памяти полна (lg_throttle)</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Exited, draining stores (drain)</source>
        <translation>Завершён, дописывает сохранения (сброс, drain)</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>TMA copy or free stage (mbarrier)</source>
        <translation>Копия TMA или свободная стадия (mbarrier)</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Asynchronous MMAs (wgmma_wait)</source>
        <translation>Асинхронные MMA (wgmma_wait)</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Not recorded</source>
        <translation>Не записано</translation>
    </message>
    <message>
        <location line="+8"/>
        <source>empty</source>
        <translation>пусто</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>issued</source>
        <translation>выдача</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>eligible</source>
        <translation>готов</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>ALU wait</source>
        <translation>ожид. ALU</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>smem/SFU wait</source>
        <translation>ожид. smem/SFU</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>memory wait</source>
        <translation>ожид. памяти</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>barrier</source>
        <translation>барьер</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>pipe busy</source>
        <translation>конвейер занят</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>MIO queue full</source>
        <translation>очередь MIO полна</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>LSU queue full</source>
        <translation>очередь LSU полна</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>drain</source>
        <translation>сброс</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>mbarrier wait</source>
        <translation>ждёт mbarrier</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>wgmma wait</source>
        <translation>ждёт wgmma</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>not recorded</source>
        <translation>не записано</translation>
    </message>
    <message>
        <location filename="../../explorer/texts/names.py" line="-37"/>
        <source>No warp runs in this slot (free, or reserved by a block whose other warps still run).</source>
        <translation>В этом слоте нет варпа (он свободен или зарезервирован блоком, другие варпы которого ещё работают).</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>Eligible and picked: the scheduler issued this warp&apos;s instruction this cycle.</source>
        <translation>Готов и выбран: планировщик выдал инструкцию этого варпа в этом такте.</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>Eligible, but the scheduler issued another warp&apos;s instruction this cycle.</source>
        <translation>Готов, но в этом такте планировщик выдал инструкцию другого варпа.</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>Waiting a fixed number of cycles for an arithmetic result it depends on (e.g. a previous FMA).</source>
        <translation>Ждёт фиксированное число тактов результата арифметики, от которого зависит (например, предыдущей FMA).</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>Waiting for a shared-memory or special-function (MUFU) result.</source>
        <translation>Ждёт результата из разделяемой памяти или блока специальных функций (MUFU).</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>Waiting for a global-memory load to come back from L1, L2 or HBM.</source>
        <translation>Ждёт, пока загрузка из глобальной памяти вернётся из L1, L2 или HBM.</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>Waiting at __syncthreads() for the other warps of its block.</source>
        <translation>Ждёт на __syncthreads() остальные варпы своего блока.</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Ready, but the arithmetic pipe it needs (FMA, SFU or Tensor Core) is busy.</source>
        <translation>Готов, но нужный ему вычислительный конвейер (FMA, SFU или тензорное ядро) занят.</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>Ready, but the shared-memory (MIO) queue is full.</source>
        <translation>Готов, но очередь разделяемой памяти (MIO) полна.</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Ready, but the global-memory (L1TEX) queue is full.</source>
        <translation>Готов, но очередь глобальной памяти (L1TEX) полна.</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Has exited and waits for its outstanding memory stores to finish.</source>
        <translation>Завершился и ждёт окончания своих незавершённых сохранений в память.</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Waiting on a stage&apos;s mbarrier: a consumer for the TMA copy to land, the producer for a free stage.</source>
        <translation>Ждёт mbarrier стадии: потребитель — пока копия TMA дойдёт до разделяемой памяти, производитель — пока стадия освободится.</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>Waiting at wgmma.wait_group for its asynchronous warpgroup MMAs on the Tensor Cores to finish.</source>
        <translation>Ждёт в wgmma.wait_group, пока его асинхронные MMA группы варпов на тензорных ядрах закончатся.</translation>
    </message>
    <message>
        <location filename="../../explorer/gui/common/state_colors.py" line="+9"/>
        <source>This SM&apos;s per-slot states were not kept for this run; select it to re-simulate it.</source>
        <translation>Состояния слотов этого SM для этого прогона не сохранялись; выберите его, чтобы симулировать заново.</translation>
    </message>
</context>
<context>
    <name>WaveStrip</name>
    <message>
        <location filename="../../explorer/gui/gemm/tiles.py" line="-221"/>
        <source>CTA slots busy in each wave ({slots} per wave; time →)</source>
        <translation>Занятые слоты CTA в каждой волне ({slots} на волну; время →)</translation>
    </message>
</context>
<context>
    <name>_ExportDialog</name>
    <message>
        <location filename="../../explorer/gui/files/export_menu.py" line="-90"/>
        <source>Browse…</source>
        <translation>Обзор…</translation>
    </message>
    <message>
        <location line="+10"/>
        <source>&amp;What:</source>
        <translation>&amp;Что:</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>&amp;Format:</source>
        <translation>&amp;Формат:</translation>
    </message>
    <message>
        <location line="+6"/>
        <source>&amp;File:</source>
        <translation>Ф&amp;айл:</translation>
    </message>
    <message>
        <location line="+27"/>
        <source>Choose a file to write.</source>
        <translation>Выберите файл для записи.</translation>
    </message>
</context>
</TS>
