"""Every word table of the parser, in one place.

The readers in this package look words up here and nowhere else: units, currency
words, the ledger categories with their synonyms, verbs, weekdays, day parts and
time words. Adding a synonym is a one-line change in this module.
"""

from __future__ import annotations

import datetime as dt

# --- numbers and units ---
CN_DIGITS = {"零": 0, "〇": 0, "一": 1, "二": 2, "两": 2, "三": 3, "四": 4, "五": 5}
CN_DIGITS |= {"六": 6, "七": 7, "八": 8, "九": 9, "俩": 2, "仨": 3}
CN_UNITS = {"十": 10, "百": 100, "千": 1000}
CN_MYRIAD = {"万": 10_000}
ASCII_MULTIPLIERS = {"k": 1000, "w": 10_000}

# --- ledger ---
EXPENSE_CATEGORIES: tuple[str, ...] = (
    "餐饮",
    "交通",
    "购物",
    "居住",
    "通讯",
    "医疗",
    "娱乐",
    "教育",
    "人情",
)
EXPENSE_CATEGORIES += ("日用", "其他")
INCOME_CATEGORIES = ("工资", "奖金", "红包", "报销", "兼职", "退款", "理财", "其他")

_EXPENSE_WORDS = {
    "餐饮": "麻辣烫 伙食费 伙食 大米 排骨 猪肉 鸡蛋 青菜 蔬菜 买肉 早餐 早饭 午餐 午饭 中饭 晚餐 晚饭 宵夜 夜宵 外卖 奶茶 咖啡 饭 吃饭 聚餐 火锅 "
    "烧烤 零食 水果 早点 面包 快餐 食堂 饮料 小吃 甜品 蛋糕 麦当劳 肯德基 星巴克 瑞幸 "
    "喜茶 买菜 菜钱 午饭钱 饭钱 餐费 请客吃饭 盒饭 便当 包子 煎饼 面条 拉面 米线 酒 "
    "吃 面条 瓶水 矿泉水 买水 早午饭 下午茶 牛奶 粥 饺子 馄饨 外卖费 "
    "苹果 香蕉 橙子 橘子 葡萄 西瓜 草莓 梨 桃子 芒果 樱桃 车厘子 柚子 牛肉 羊肉 鸡肉 "
    "鱼 虾 海鲜 酸奶 豆腐 白菜 黄焖鸡 盖饭 炒饭 炒面 米饭 沙拉 汉堡 披萨 寿司 串串 冒菜 酸辣粉 "
    "螺蛳粉 凉皮 肉夹馍 烤鸭 水饺 馒头 豆浆 油条 加班餐 工作餐 套餐 牛肉面 土豆 西红柿 鸡翅 鸭脖 饮食",
    "交通": "换电 的士 搭的士 油钱 电瓶车 电动车 换电池 拼车 顺风车 地铁 公交 打车 滴滴 出租车 加油 油费 停车 停车费 高铁 火车 机票 飞机 "
    "加气 罚单 违章 车贷 修车 保养 车险 年检 车费 路费 过路费 高速费 共享单车 单车 车票 船票 充电 洗车 箱油 加了油 加了箱油 ETC etc 过桥费",
    "购物": "买东西 蛋白粉 保健品 羽绒服 大衣 毛衣 显示器 键盘 鼠标 卫衣 外套 衣服 鞋 鞋子 裤子 包包 网购 淘宝 京东 拼多多 化妆品 护肤品 数码 手机壳 "
    "耳机 电脑 书包 礼物 手表 眼镜 购物 超市购物 日用百货 平板 家电 婚纱 队服 婴儿床 婴儿车 玩具 家具 床 沙发 "
    "剁手 母婴 采购 孕妇装 奖品",
    "居住": "修水管 水管 维修费 上门费 换锁 修马桶 房租 租金 电费 水费 燃气费 煤气费 物业费 物业 暖气费 房贷 水电 水电费 交房租 煤气罐 煤气 液化气 燃气",
    "通讯": "话费 手机费 流量 充话费 电话费 月租 宽带 网费 宽带费",
    "医疗": "试纸 血糖试纸 药 买药 看病 挂号 医院 体检 牙医 看牙 门诊 药费 医药费 保健品 维生素 吃药 "
    "感冒药 看医生 疫苗 打疫苗 自费 退烧药 住院 检查费 挂号费 产检 孕检",
    "娱乐": "电影 看电影 游戏 唱歌 KTV ktv 演唱会 门票 旅游 健身 健身房 会员 视频会员 "
    "游泳 球票 剧本杀 桌游 按摩 酒店 住宿 民宿 宾馆 景区 steam Steam 原神 王者荣耀 游戏充值 点卡",
    "教育": "早教 早教课 春游费 校服费 资料费 班费 保育费 幼儿园 学费 篮球班 游泳班 足球班 美术班 书法班 编程班 资料 考研 教辅 练习册 钢琴班 补习班 培训班 兴趣班 钢琴课 舞蹈课 课时费 补课 补课费 托管 托管班 报名 学费 书 买书 课程 网课 培训 考试 报名费 教材 辅导 文具 英语课 报课 报班 补习 课程费 "
    "网课费 兴趣班",
    "人情": "份子钱 随份子 份子 随礼 礼金 请客 送礼 礼物钱 孝敬 发红包 包红包 给红包 "
    "发了红包 发了个红包 包了红包",
    "日用": "洗洁精 卫生纸 抽纸 洗衣粉 肥皂 沐浴露 日用品 纸巾 洗发水 牙膏 超市 洗衣液 理发 剪头发 快递 快递费 水电煤 垃圾袋 家居 日用 "
    "奶粉 尿不湿 纸尿裤 拉拉裤 湿巾",
}
EXPENSE_SYNONYMS: dict[str, str] = {
    word: category for category, said in _EXPENSE_WORDS.items() for word in said.split()
}
EXPENSE_SYNONYMS |= {category: category for category in EXPENSE_CATEGORIES}

INCOME_SYNONYMS: dict[str, str] = {
    "工资": "工资",
    "薪水": "工资",
    "发工资": "工资",
    "薪资": "工资",
    "月薪": "工资",
    "奖金": "奖金",
    "年终奖": "奖金",
    "绩效": "奖金",
    "提成": "奖金",
    "佣金": "奖金",
    "红包": "红包",
    "收红包": "红包",
    "抢红包": "红包",
    "压岁钱": "红包",
    "报销": "报销",
    "报销款": "报销",
    "兼职": "兼职",
    "外快": "兼职",
    "稿费": "兼职",
    "约稿": "兼职",
    "稿酬": "兼职",
    "副业": "兼职",
    "私活": "兼职",
    "退款": "退款",
    "退货": "退款",
    "退钱": "退款",
    "理财": "理财",
    "利息": "理财",
    "分红": "理财",
    "收益": "理财",
    "基金": "理财",
    "炒股": "理财",
    "股票": "理财",
    "退休金": "工资",
    "养老金": "工资",
    "退回来": "退款",
    "退押金": "退款",
    "押金退": "退款",
    "退的押金": "退款",
    "退回": "退款",
    "退了": "退款",
    "退给我": "退款",
    "家教": "兼职",
    "家教费": "兼职",
    "奖学金": "奖金",
    "外包": "兼职",
    "定金": "兼职",
    "设计单": "兼职",
    "尾款": "兼职",
    "设计费": "兼职",
    "劳务费": "兼职",
    "项目款": "兼职",
    "接单": "兼职",
    "私单": "兼职",
    "兼职工资": "兼职",
    "全勤奖": "奖金",
    "全勤": "奖金",
    "代课": "兼职",
    "团课": "兼职",
    "私教课": "兼职",
    "发传单": "兼职",
    "跑腿": "兼职",
    "代驾": "兼职",
    "奖励": "奖金",
    "冲单奖励": "奖金",
    "工钱": "工资",
    "季度奖": "奖金",
    "绩效奖": "奖金",
    "月度奖": "奖金",
    "半年奖": "奖金",
    "给报了": "报销",
    "报了销": "报销",
    "夜班费": "工资",
    "小时费": "工资",
    "飞行小时费": "工资",
    "加班费": "工资",
    "值班费": "工资",
}
"""Income words: with one of these (and no spending verb) an amount is income."""

INCOME_VERBS: tuple[str, ...] = (
    "收到",
    "收款",
    "收入",
    "到账",
    "进账",
    "入账",
    "赚了",
    "挣了",
    "收了",
    "领了",
    "发了",
    "卖了",
)
NOT_MONEY_UNITS = frozenset(
    [
        "磅",
        "lb",
        "lbs",
        "米",
        "公里",
        "km",
        "千米",
        "cm",
        "厘米",
        "度",
        "步",
        "次",
        "分",
        "秒",
        "页",
        "层",
        "楼",
        "岁",
        "个",
        "遍",
        "圈",
        "下",
        "毫升",
        "ml",
        "卡",
        "大卡",
    ]
)
"""A number with one of these after it measures something else: never money."""
MEASURE_WORDS = (
    "个", "次", "小时", "分钟", "秒", "天", "年", "月", "周", "岁", "步", "公里", "米", "层",
    "楼", "页", "遍", "杯", "瓶", "碗", "斤", "克", "度", "分", "人", "口", "张", "件", "双",
    "份", "盒", "袋", "箱", "本", "支", "桶", "罐", "包", "条", "只", "台", "部", "套", "副",
    "根", "颗", "粒", "片", "把", "辆", "束", "顿", "趟", "场", "节",
)  # fmt: skip
ADDRESS_UNITS = ("床", "栋", "幢", "单元", "号楼", "室", "排", "座")
"""`8楼12床`, `3栋2单元`, `5排8座`: a number that says where, never money."""
"""Words right after a number that make it a count or a measure (`2个小时`), not money."""

# --- verbs and leads ---
RECORD_LEADS: tuple[str, ...] = (
    "帮我记一下",
    "帮我记一笔",
    "帮我记个",
    "帮我记",
    "记一下",
    "记一笔",
    "记个",
    "再记一笔",
    "再记一下",
    "再记个",
    "jz",
    "记账:",
    "帮我记下",
    "帮我记低",
)
RECORD_LEADS += ("记下", "请记", "帮忙记", "记录一下", "记录", "帮我记着", "记着")
TODO_AFTER_RECORD_LEADS = ("需要", "要", "得")
"""`帮我记一下要买猫粮`: after a record lead, a thing to do (a task), not a fact."""
RECORD_VERB = "记"
"""The bare verb before a record (`记两杯水`, `记 72.4`), unless a word goes on."""
NOT_RECORD_VERB = ("得", "住", "性", "忆", "者", "号", "到", "账", "日记", "事", "错", "不")
TASK_LEADS: tuple[str, ...] = ("记到待办", "加到待办", "放到待办", "放进待办", "记个任务")
TASK_LEADS += (
    "加个待办",
    "加一个待办",
    "添加待办",
    "加待办",
    "新建待办",
    "记个待办",
    "待办事项",
)
TASK_LEADS += ("加个任务", "添加任务", "加任务", "新任务", "待办", "任务", "todo", "ddl")
TASK_EDGE_WORDS = ("todo", "ddl", "待办")
"""A bare task word said last (`周六 去健身房 todo`): the line is a task."""
EVENT_LEADS = ("记到日程", "加到日程", "加个日程", "添加日程", "加日程", "安排", "日程")
REMIND_WORDS: tuple[str, ...] = (
    "提醒我们",
    "提醒咱们",
    "叫我们",
    "提醒我",
    "叫我",
    "提醒一下我",
    "记得提醒我",
    "到时候提醒我",
    "通知我",
    "提醒我一下",
    "喊我一声",
    "喊我",
    "叫我一声",
    "提醒一下",
    "提醒下",
    "提醒下我",
    "remind me",
    "叫我一下",
    "喊我一下",
)
DONE_WORDS: tuple[str, ...] = (
    "搞定",
    "做完",
    "完成",
    "弄完",
    "办完",
    "办好",
    "做好",
    "弄好",
    "结束",
    "完事",
)
DONE_WORDS += ("交了", "已完成", "已经完成", "做了")

# --- views and undo ---
UNDO_PHRASES = (
    "撤回刚才那个", "撤回刚才那条", "撤回上一条", "撤销上一条", "撤销刚才", "撤回刚才",
    "刚才记错", "刚才那条不要", "刚才那个不要", "上一条不要", "上一条删掉", "上一条记错",
    "删掉刚才那条", "删掉上一条", "删掉刚才那个", "记错了", "记错", "刚才的不算",
    "撤销一下", "撤回一下", "刚刚记错", "刚刚那条不要", "不对撤回", "撤销刚刚",
)  # fmt: skip

# --- days and times ---
WEEKDAYS = {"一": 0, "二": 1, "三": 2, "四": 3, "五": 4, "六": 5, "日": 6, "天": 6}
WEEKDAYS |= {str(number): number - 1 for number in range(1, 8)}
CRON_WEEKDAYS = ("mon", "tue", "wed", "thu", "fri", "sat", "sun")
RELATIVE_DAYS = {"今天": 0, "今日": 0, "明天": 1, "明日": 1, "后天": 2, "大后天": 3}
RELATIVE_DAYS |= {"昨天": -1, "前天": -2}
AFTERNOON = frozenset({"下午", "傍晚", "晚上", "今晚", "明晚", "睡前", "睡觉前", "晚"})
MORNING = frozenset({"凌晨", "早上", "早晨", "上午", "明早", "今早", "清晨", "夜里", "半夜", "早"})
PERIOD_TIMES = {
    "早上": dt.time(8), "早晨": dt.time(8), "上午": dt.time(9), "中午": dt.time(12),
    "下午": dt.time(15), "傍晚": dt.time(18), "晚上": dt.time(20), "睡前": dt.time(22),
    "睡觉前": dt.time(22),
}  # fmt: skip
"""What a period word alone means (`每天早上 跑步`); 凌晨 alone is not a time."""
MINUTE_WORDS = {"半": 30, "一刻": 15, "三刻": 45}
DURATION_SECONDS = {"分钟": 60, "分": 60, "min": 60, "小时": 3600, "钟头": 3600, "h": 3600}
DURATION_SECONDS |= {"天": 86400}

# --- switches and settings ---
SWITCH_SYNONYMS = {"打开": "开启", "关掉": "关闭", "停掉": "关闭", "停止": "关闭", "启用": "开启"}
SWITCH_SYNONYMS |= {"关了": "关闭", "关": "关闭", "开": "开启"}
ENGLISH_SWITCHES = {"off": " 关", "on": " 开"}
"""`晚报 off`, `喝水提醒 on`: an English switch word at the end, read as its Chinese."""
QUIET_WORDS: tuple[str, ...] = (
    "别给我发消息",
    "别发消息",
    "不要发消息",
    "别给我发",
    "免打扰",
    "勿扰",
    "别打扰我",
    "不要打扰我",
    "别打扰",
    "别吵我",
    "不要吵我",
    "别烦我",
    "不要烦我",
    "静音",
    "别发提醒",
    "不要发提醒",
    "别发通知",
)
QUIET_WORDS += ("别提醒我", "别提醒", "别发消息", "不要发消息", "别给我发", "别找我", "不要找我")
QUIET_WORDS += ("别来烦我", "别来打扰我", "别来吵我", "不要来烦我", "不要来打扰我")
QUIET_WORDS += tuple(
    f"{no}{me}{what}"
    for no in ("别", "不要", "勿", "请勿")
    for me in ("", "给我")
    for what in ("发消息", "发提醒", "发通知", "打扰", "推送")
)
"""`请勿打扰`, `不要给我发消息`: composed."""
END_WORDS = ("关掉", "关闭", "结束", "取消", "解除", "停止", "关了")
HEDGES = (
    "听说", "打算", "预算", "以前", "小时候", "涨", "降价", "太贵", "才", "如果", "要是",
    "想", "计划", "准备", "可能", "大概", "应该", "据说", "别人", "他的", "她的", "他们",
    "她们", "他花", "她花", "他买", "她买", "的工资",
    "能买", "好多", "居然", "竟然", "比", "只要", "原价", "便宜", "多少钱", "一共要",
    "亏", "赔", "损失", "跌", "借", "都要", "要卖", "卖到", "居然要", "竟然要",
)  # fmt: skip
"""Words that make an amount a story, not a fact to record: asked, never recorded."""

# --- intent cues (issue 19): the words the intent families in `intents` weigh ---
# Each table is a cue: adding a synonym is one entry here, never a new rule.
SPEND_OUT_WORDS: tuple[str, ...] = (
    "借给",
    "转给",
    "打给",
    "给",
    "包了",
    "包个",
    "送了",
    "送给",
    "随了",
    "孝敬",
    "送",
)
"""Money going out to someone (`给侄子包了个红包 200`): an expense, never income."""
LOAN_WORDS = ("借给", "借了", "先借", "借钱")
"""Money lent is no gift: its category is 其他 unless an item is named (`借给表弟两千`)."""
GIFT_WORDS = ("红包", "压岁钱", "份子", "礼金", "礼物", "生活费", "零花钱")
"""What is given to people: with an out-word it is 人情 (`给侄子包了个红包`)."""
LEDGER_WORDS: tuple[str, ...] = tuple(
    sorted({*EXPENSE_SYNONYMS, *INCOME_SYNONYMS, *GIFT_WORDS}, key=len, reverse=True)
)
"""Every word that names a ledger item (spending, income, gift), longest first: a
number before one is an amount (`两千生活费`, `28宵夜`)."""
INCOME_IN_WORDS: tuple[str, ...] = (
    "转过来",
    "打过来",
    "收款",
    "转我",
    "给了我",
    "转来",
    "转给我",
    "给我转",
    "打给我",
    "给我发",
    "发给我",
    "到账",
    "报销",
    "给我包",
    "给了我",
    "给我了",
    "转了我",
    "打了我",
    "发了我",
    "到手",
    "给报了",
    "给我报了",
    "退款到",
    "退款已到",
    "钱退回来",
)
"""Money coming in from someone (`儿子转来的生活费 2000`)."""
INCOME_IN_WORDS += tuple(f"{money}到了" for money in ("钱", "款", "金", "资", "奖"))
"""Money that arrived (`货款到了 3000`, `工资到了`; a bill that came, 电费到了, is to pay)."""
PERSON_OBJECT_VERBS = "送接带完"
"""Right before a person word, the person is who the user did it to (`送完娃`, `接孩子`)."""
GIVER_SENT_VERBS = ("发了", "包了", "给了", "转了", "塞了")
GIVER_SENT_ADVERBS = ("也", "又", "还", "都")
NOT_FROM_GIVER = "给送帮替"
PASSED_ON_WORD = "给"
COUNT_ONE = ("一个", "个")
"""`发了个红包`, `开个喝水提醒`: one of a thing, said between a verb and it."""
"""`我妈发了个红包给表弟`: the red packet went on to someone named: not mine."""
"""`过节客户发了个红包`: a giver, maybe an adverb, then a verb of sending: it came in,
unless one of NOT_FROM_GIVER is said right before the giver (`给客户发了个红包`)."""
GIVERS: tuple[str, ...] = ("乘客", "客人", "顾客", "客户", "老板", "公司", "单位", "房东", "家长")
"""Who pays the user (`乘客多给了二十`): with the people words, a giver said right
before 给了 makes the money come in."""
GIFT_OCCASIONS = ("过年", "压岁", "春节", "生日", "过节", "中秋", "新年")
"""`闺女给我转了两千过年用`: money from someone for an occasion is a gift (红包)."""
GIVEN_TO_ME = ("多给了", "又给了", "也给了", "给了我", "给了")
"""After a giver, the verb that hands the money over (`老板多给了二十`)."""
PRICE_NOUNS = ("租金", "房租", "价格", "价钱", "票价", "油价", "菜价", "物价", "肉价")
PRICE_MOVES = ("加到", "涨到", "升到", "降到", "调到", "提到", "涨了", "贵了", "降了")
"""`隔壁铺头租金加到九千`: a price that moved, said of a price (composed into REMARK_WORDS)."""
MEASURING_DEVICES = ("血压计", "血糖仪", "血糖试纸", "试纸", "体温计", "体重秤", "血氧仪")
"""Things bought, not measurements: a remark word inside one (血压) says nothing."""
EXCLAMATIONS = ("离谱", "吓人", "坑人", "抢钱", "真黑", "太黑")
"""Remark words that only exclaim: they make a price a remark, but not my own weight
said with its unit (`又胖了 69.4kg 离谱`)."""
REMARK_WORDS: tuple[str, ...] = (
    "有人晒",
    "有人说",
    "别人",
    "人家",
    "卧推",
    "深蹲",
    "硬拉",
    "bench",
    "squat",
    "deadlift",
    "1rm",
    "负重",
    "举重",
    "杠铃",
    "哑铃",
    *(noun + move for noun in PRICE_NOUNS for move in PRICE_MOVES),
    "起价",
    "涨价",
    "降价",
    "人均",
    "标准",
    "估分",
    "分数",
    "成绩",
    "排名",
    "名次",
    "得分",
    "工号",
    "气温",
    "温度",
    "涨到",
    "降到",
    "房价",
    "均价",
    "平均",
    "号称",
    "标价",
    "报价",
    "一般要",
    "起步价",
    "听说",
    "据说",
    "听人说",
    "新闻",
    "排名",
    "考了",
    "分数",
    "门牌",
    "车牌",
    "绩效打",
    "打分",
    "评分",
    "评级",
    "考核",
    "得分",
    "成绩",
    "电话号",
    "号码",
    "快递单号",
    "单号",
    "楼层",
    "工资才",
    "身高",
    "度数",
    "股价",
    "指数",
    "大盘",
    "市值",
    "车次",
    "航班",
    "座位",
    "周岁",
    "岁了",
    "视力",
    "血压",
    "心率",
    "血糖",
    "体温",
    "步数",
    "分贝",
    "那家",
    "这家店",
    "抢钱",
    "一碗面要",
    "一杯要",
    "要价",
    "卖到",
    "再也不",
    "下次",
    "不会再",
    "以后不",
    "隔壁",
    "胖到",
    "中了",
    "彩票",
    "真黑",
    "太黑",
    "离谱",
    "坑人",
    "吓人",
    "网上说",
    "真的假的",
    "一平米",
    "每平米",
    "每平",
    "一平",
    "一斤要",
    "每斤",
    "自重",
    "净重",
    "毛重",
    "载重",
    "承重",
    "额定",
    "功率",
)
"""A remark with a number in it (`楼下新开的火锅店人均120`): never a record."""
OTHER_PEOPLE: tuple[str, ...] = (
    "他",
    "她",
    "我妈",
    "我爸",
    "老公",
    "老婆",
    "媳妇",
    "儿子",
    "女儿",
    "孩子",
    "宝宝",
    "同事",
    "朋友",
    "室友",
    "闺蜜",
    "哥",
    "姐",
    "弟",
    "妹",
    "爷爷",
    "奶奶",
    "外婆",
    "外公",
    "对象",
    "男朋友",
    "女朋友",
    "猫",
    "狗",
    "老王",
    "老张",
    "老李",
    "老刘",
    "老陈",
    "小王",
    "小张",
    "小李",
    "小刘",
    "小陈",
    "二姨",
    "大姨",
    "小姨",
    "姨妈",
    "舅舅",
    "叔叔",
    "阿姨",
    "邻居",
    "亲戚",
    "表哥",
    "表姐",
    "婆婆",
    "公公",
    "姑妈",
    "娃",
    "小孩",
    "闺女",
    "孙子",
    "孙女",
    "外孙",
    "老头子",
    "老伴",
    "老婆子",
    "爱人",
    "先生",
    "孩子他爸",
    "孩子他妈",
    "侄子",
    "侄女",
    "外甥",
    "老大",
    "老二",
)
"""Someone else's weight is not the user's (`我妈体重60`)."""
WEIGHT_CUES: tuple[str, ...] = (
    "体重",
    "称了",
    "称重",
    "上秤",
    "秤上",
    "量了下体重",
    "量体重",
    "称一下",
    "称下",
    "称的",
)
WEIGHT_CHANGE_WORDS = (
    "轻了", "重了", "瘦了", "胖了", "掉了", "涨了", "长了", "减了", "少了", "多了", "降了",
)  # fmt: skip
"""Before a weight, these say by how much it changed (`比昨天轻了0.3公斤`)."""
WEIGHT_UNITS = {"kg": False, "kgs": False, "公斤": False, "千克": False, "斤": True}
"""Weight units and whether they are 斤 (halved to kilograms)."""
BUDGET_CUES: tuple[str, ...] = (
    "预算",
    "最多花",
    "最多只花",
    "不超过",
    "不能超过",
    "别超过",
    "控制在",
    "上限",
    "限额",
    "封顶",
    "额度",
    "一个月最多",
    "每月最多",
    "每个月最多",
    "月最多",
    "一个月不超过",
    "每月不超过",
    "budget",
)
"""A limit on spending: the sentence sets a budget, it never records an expense."""
GOAL_CUES = ("目标体重", "减到", "瘦到", "减肥目标", "体重目标", "目标是", "目标")
WATER_ADVERBS = ("一口气", "又", "刚刚", "刚才", "刚", "已经", "再")
WATER_TIMES = ("x", "×", "*", "+")
"""`喝水x3`, `水 +2`: the count after these."""
EVENT_MARKERS: tuple[str, ...] = (
    "记到日程里",
    "记到日程",
    "加到日程",
    "加个日程",
    "加日程",
    "放进日程",
    "放到日程",
    "写进日程",
    "进日程",
    "添加日程",
    "记进日程",
    "存到日程",
    "日程里记一下",
    "记日程",
    "记一下日程",
    "记下日程",
    "加进日程",
    "在日程中添加",
    "日程中添加",
    "在日程里添加",
    "添加到日程",
    "记在日程里",
    "记在日程上",
    "记在日程",
    "放日程里",
    "放到日程里",
    "放进日程里",
    "放日程",
    "安排一个日程",
    "记个日程",
    "记到日程上",
    "加到日程上",
    "记一个日程",
    "加一下日程",
    "安排个日程",
    "加一个日程",
)
TASK_MARKERS: tuple[str, ...] = (
    "加入任务",
    "加入待办",
    "放入待办",
    "记一个待办",
    "加到待办",
    "加个待办",
    "加待办",
    "记到待办",
    "放进待办",
    "放到待办",
    "列入待办",
    "写进待办",
    "进待办",
    "添加待办",
    "记个待办",
    "加到任务",
    "加个任务",
    "记到任务",
    "加todo",
    "加个todo",
    "记todo",
    "进todo",
    "记到待办里",
    "加到待办里",
    "放到待办里",
    "记进待办里",
    "添加一个待办",
    "添加个待办",
    "加一个待办",
    "记个事",
    "添加一个任务",
    "加一个待办事项",
    "加个待办事项",
    "添加待办事项",
    "记个任务",
    "帮我记个任务",
    "加一个任务",
    "记待办",
    "记个事儿",
    "记件事",
    "记件事儿",
)
POINTED_TASK_MARKERS = ("这个待办", "这条待办", "这个任务")
"""`明早八点去银行 这个待办到点一直催我`: the line is a task, when a day or time is said
and nothing turns it off or says it is done (`这个待办删了` points at one)."""
MOVE_LEADS = (
    "往后推", "往前挪", "往后挪", "推迟", "提前", "延期", "延后", "调整", "变更", "改", "挪", "移",
    "推", "换", "延", "调",
)  # fmt: skip
MOVE_ENDS = ("到", "成", "为", "在", "至")
MOVE_VERBS = tuple(
    sorted({lead + end for lead in MOVE_LEADS for end in MOVE_ENDS}, key=len, reverse=True)
)
"""Words that move an event to a new time (`第一个日程提前到下午一点半`, `日程2改至12月8日`,
`调整为16:00`): a verb and where it goes, composed."""
EVENT_OFF_WORDS = (
    "取消", "取消了", "不去", "不去了", "删掉", "删了", "删除", "删", "不开了", "不开", "去不了",
    "去不成", "黄了", "不办了", "不要了", "不要", "不上了",
)  # fmt: skip
"""Turn-off words that cancel an event named by its title (`练车那个日程删了吧`)."""
MARKER_VERBS = ("添加", "安排", "新建", "记", "加", "放", "添", "写", "列", "设", "建", "弄")
MARKER_LINKS = ("到", "进", "入", "在", "成", "为", "作", "做")
MARKER_COUNTS = ("一个", "一条", "一项", "一下", "个", "条", "项")
MARKER_ENDS = ("里面", "里", "上", "中")
EVENT_PLACES = ("日程表", "日程", "日历", "行程")
TASK_PLACES = ("待办事项", "待办清单", "待办", "任务", "todo")
MARKER_PLACE_LEADS = ("在", "往", "向")
MARKER_PLACE_LINKS = (*MARKER_LINKS, "上")
"""The parts an explicit marker is said in: a verb, a link, a count, the place, an end
(`记成待办`, `加到日历里`, `写进行程`), or the place first (`在日程里加一个`,
`往待办里面加上`). The readers compose them, so a new verb or place is one word
here; the two lists above keep the markers said another way."""
LOOK_WORDS: tuple[str, ...] = (
    "看看",
    "看一下",
    "看下",
    "查看",
    "查询",
    "查一下",
    "查下",
    "查查",
    "给我看",
    "列一下",
    "列出",
    "显示",
    "打开",
    "瞅瞅",
    "瞧瞧",
    "发我",
    "发一下",
    "给我列",
    "列个",
    "汇总一下",
    "总结一下",
    "recap",
    "summary",
    "show",
)
QUESTION_CUES: tuple[str, ...] = (
    "够没",
    "完没",
    "what",
    "哪些",
    "什么",
    "啥",
    "多少",
    "几",
    "吗",
    "怎么样",
    "咋样",
    "如何",
    "有没有",
    "还剩",
    "剩多少",
    "情况",
    "在哪",
    "没有",
    "够了没",
    "了没",
    "?",
    "？",
    "木有",
    "哪个",
    "边个",
    "怎样",
    "会怎样",
)
VIEW_NOUNS: dict[str, str] = {
    "日程": "events",
    "预约": "events",
    "安排": "events",
    "行程": "events",
    "约会": "events",
    "待办": "tasks",
    "任务": "tasks",
    "todo": "tasks",
    "要做的事": "tasks",
    "没做的": "tasks",
    "事没做": "tasks",
    "事没干": "tasks",
    "哪些活": "tasks",
    "什么活": "tasks",
    "啥活": "tasks",
    "哪些活动": "events",
    "什么活动": "events",
    "啥活动": "events",
    "有啥会": "events",
    "哪些会": "events",
    "有什么会": "events",
    "有哪些约": "events",
    "有什么约": "events",
    "有啥约": "events",
    "提醒": "reminders",
    "闹钟": "reminders",
    "预算": "budgets",
    "周报": "review",
    "周总结": "review",
    "复盘": "review",
    "周复盘": "review",
    "渠道": "channels",
    "事没办": "tasks",
    "日程表": "events",
    "提醒列表": "reminders",
    "todo list": "tasks",
    "ddl": "tasks",
    "待办清单": "tasks",
    "任务清单": "tasks",
    "没干完": "tasks",
    "没做完": "tasks",
    "没弄完": "tasks",
    "回顾": "review",
    "没做": "tasks",
    "没干的": "tasks",
    "没干": "tasks",
}
"""Things that can be shown; a question or look word with one of them is that view."""
SCOPE_WORDS: dict[str, str] = {
    "今天": "today",
    "今日": "today",
    "这周": "week",
    "本周": "week",
    "这星期": "week",
    "这个星期": "week",
    "这礼拜": "week",
    "这一周": "week",
    "这个月": "month",
    "这月": "month",
    "本月": "month",
    "这一个月": "month",
    "今年": "year",
    "本年": "year",
    "这一年": "year",
    "年度": "year",
    "全年": "year",
    "一整年": "year",
    "整年": "year",
    "一年下来": "year",
    "这个礼拜": "week",
    "今儿": "today",
    "今儿个": "today",
    "月度": "month",
}
"""The span a look or question covers (`这个月的账`, `今年怎么样`)."""
MONEY_NOUNS: tuple[str, ...] = (
    "账",
    "赚",
    "挣",
    "花",
    "支出",
    "开销",
    "花销",
    "消费",
    "收入",
    "钱",
    "账单",
    "收支",
)
WATER_NOUNS: tuple[str, ...] = (
    "喝水",
    "喝了几杯",
    "几杯水",
    "水",
    "喝几杯",
)
IDENTITY_WORDS: tuple[str, ...] = (
    "userid",
    "user id",
    "用户id",
    "账号",
    "帐号",
    "用户名",
    "用户号",
    "id",
    "工号是啥",
    "我是谁",
    "系统里是谁",
    "这里是谁",
)
PAGE_WORDS: tuple[str, ...] = (
    "网页链接",
    "网页版",
    "网页",
    "网址",
    "链接",
    "页面",
    "个人主页",
    "主页",
    "浏览器",
    "网页版地址",
    "地址",
    "web",
    "link",
    "url",
)
EXPORT_WORDS: tuple[str, ...] = (
    "导出",
    "导成",
    "下载我的数据",
    "下载数据",
    "备份我的",
    "打包我的",
    "打包数据",
    "打包记录",
    "打包下载",
    "打包给我",
    "数据下载",
    "export",
    "下载我的",
    "全部记录",
    "备份一下我的",
    "我要下载",
    "我的数据",
    "数据能下载",
    "下载所有",
    "excel",
)
SAID_AGAIN_PARTICLES = "吧了啊呀啦哈呗嘛"
"""Particles around a clause that only repeats a turn-off (`…不用了，取消吧`)."""
TURN_OFF_WORDS: dict[str, str] = {
    "先停一下": "pause",
    "先停": "pause",
    "暂停": "pause",
    "停一下": "pause",
    "停几天": "pause",
    "停一停": "pause",
    "停了": "pause",
    "停掉": "pause",
    "停": "pause",
    "删掉": "delete",
    "删了": "delete",
    "去不了": "delete",
    "去不成": "delete",
    "删除": "delete",
    "删": "delete",
    "去掉": "delete",
    "不要了": "delete",
    "不要": "delete",
    "取消": "delete",
    "撤掉": "delete",
    "不设": "delete",
    "不需要": "delete",
    "不用": "delete",
    "免了": "delete",
    "关掉": "close",
    "关了": "close",
    "关闭": "close",
    "关": "close",
    "别": "close",
    "别响": "pause",
    "别推送": "close",
    "别发": "close",
    "不要推送": "close",
    "不用发": "close",
    "不用推送": "close",
    "暂停几天": "pause",
    "暂停一下": "pause",
    "先暂停": "pause",
    "暂停下": "pause",
    "停下": "pause",
    "撤了": "delete",
    "撤": "delete",
    "不去了": "delete",
    "不去": "delete",
    "不上了": "delete",
    "别推了": "close",
    "别推": "close",
    "别推送了": "close",
    "不开了": "close",
    "不开": "close",
    "别开": "close",
    "pause": "pause",
    "stop": "close",
    "cancel": "delete",
    "delete": "delete",
}
"""Turning a thing off, and how far: pause (for now), close (off), delete (gone)."""
SEND_OFF_NEGATIONS = ("别", "不用", "不要", "不必")
SEND_OFF_VERBS = ("发送", "推送", "发", "推")
TURN_OFF_WORDS |= {
    f"{no}{again}{me}{verb}": "close"
    for no in SEND_OFF_NEGATIONS
    for again in ("", "再")
    for me in ("", "给我")
    for verb in SEND_OFF_VERBS
    if again or me
}
"""`以后别给我发周报了`, `晚报不要再推了`: not sent any more, composed."""
TURN_ON_WORDS: dict[str, str] = {
    "重新打开": "resume",
    "重新开": "resume",
    "恢复": "resume",
    "继续": "resume",
    "接着提醒": "resume",
    "接着发": "resume",
    "再开": "resume",
    "打开": "enable",
    "开启": "enable",
    "启用": "enable",
    "开": "enable",
    "开回来": "resume",
    "打开回来": "resume",
    "恢复回来": "resume",
    "开始": "enable",
    "resume": "resume",
    "enable": "enable",
}
FEATURE_NOUNS: dict[str, str] = {
    "免打扰": "quiet",
    "勿扰": "quiet",
    "晨报": "digest_morning",
    "早报": "digest_morning",
    "早间简报": "digest_morning",
    "晚报": "digest_evening",
    "晚间回顾": "digest_evening",
    "周报": "review",
    "weekly review": "review",
    "每周回看": "review",
    "周回顾": "review",
    "喝水提醒": "water",
    "提醒喝水": "water",
    "喝水": "water",
    "卡片": "cards",
    "所有提醒": "all_reminders",
    "全部提醒": "all_reminders",
    "所有的提醒": "all_reminders",
    "提醒全部": "all_reminders",
    "提醒都": "all_reminders",
    "提醒全": "all_reminders",
    "提醒统统": "all_reminders",
    "提醒全都": "all_reminders",
    "全部的提醒": "all_reminders",
    "目标体重": "goal",
    "体重目标": "goal",
    "减肥目标": "goal",
    "预算": "budget",
    "晚上那个总结": "digest_evening",
    "晚上的总结": "digest_evening",
    "每晚总结": "digest_evening",
    "早上的计划": "digest_morning",
    "早上那个计划": "digest_morning",
    "今日安排": "digest_morning",
    "每周的回顾": "review",
    "每周回顾": "review",
}
"""Things a user switches on or off by name (`晨报重新打开`, `不用免打扰了`)."""
DONE_PAST_VERBS: tuple[str, ...] = (
    "取",
    "还",
    "交",
    "寄",
    "拿",
    "买",
    "洗",
    "修",
    "剪",
    "付",
    "缴",
    "办",
    "签",
    "领",
    "退",
    "扔",
    "倒",
    "约",
    "预约",
    "充",
    "打",
    "回",
    "发",
    "订",
    "收",
    "写",
    "拿到",
    "取到",
    "收到",
    "去过",
    "做过",
    "办过",
    "取回来",
    "拿回来",
    "取回",
    "拿回",
    "交上去",
    "交上",
    "喂",
)
"""`快递取了`, `书还了`, `水费交了`: a thing, then one of these, then 了: done."""
AHEAD_BEFORE = ("过年前", "春节前", "过节前", "新年前", "年底前", "年前要")
"""`过年前要瘦下来`: before a day still to come; its 年前 is no fact of another time."""
PAST_WORDS: tuple[str, ...] = (
    "去年",
    "昨天",
    "前天",
    "上周",
    "上个月",
    "上月",
    "以前",
    "之前",
    "那时",
    "当年",
    "小时候",
    "上次",
    "上回",
    "年前",
    "个月前",
    "当时",
    "那时候",
    "那会儿",
    "时候",
    "大学时",
    "高中时",
    "上学时",
    "读书时",
    "结婚前",
    "生孩子前",
)
"""A fact of another time (`去年体重80`): told, not recorded as today's."""
POLITE_LEADS: tuple[str, ...] = (
    "记得",
    "你帮我",
    "你给我",
    "麻烦你",
    "麻烦",
    "请你",
    "请",
    "给我",
    "请问",
    "帮我",
    "帮忙",
    "安排上",
    "安排一下",
)
RECUR_TAILS = ("每天", "每日", "天天", "每晚", "每早", "工作日", "每个工作日", "每周末")
"""A recurrence said after the reminder (`早上八点提醒我吃早饭，每天`)."""
UNDO_CUES: tuple[str, ...] = (
    "上一步",
    "上条",
    "刚那条",
    "刚才那条",
    "刚刚那条",
    "上一笔",
    "上一条",
    "刚记的",
    "刚才记的",
    "刚那笔",
    "刚才那笔",
    "刚才那个",
    "刚刚那个",
    "最后一条",
    "最后一笔",
    "刚才的",
    "刚刚的",
    "那一条",
    "刚才那一条",
    "刚刚那一条",
    "上一步",
    "上一个",
    "刚记的那笔",
    "刚那个",
)
UNDO_VERBS: tuple[str, ...] = (
    "回退",
    "退回",
    "记错",
    "不对",
    "删",
    "撤",
    "不要",
    "错了",
    "作废",
    "不算",
)
"""`刚那条记错了 删掉`, `上一笔不对 撤了吧`: the last record, undone."""
HELP_CUES: tuple[str, ...] = (
    "会些啥",
    "都会啥",
    "会些什么",
    "都会什么",
    "会干啥",
    "能干嘛",
    "能干啥",
    "能做啥",
    "能做什么",
    "有哪些指令",
    "有什么指令",
    "有哪些命令",
    "怎么玩",
    "干点啥",
    "干点什么",
    "做点啥",
    "使用说明",
    "说明书",
    "不太会用",
    "不太会弄",
    "不会弄",
    "这个东西怎么用",
    "这个怎么用",
    "都有啥功能",
    "有什么功能",
    "你能干",
    "能干点",
    "有啥功能",
    "有哪些功能",
    "啥功能",
    "都能干",
    "还能干",
    "教下我",
    "教我",
    "点用",
    "教一下",
    "能记些什么",
    "都能记",
    "能记什么",
    "能记啥",
    "能帮我做什么",
    "帮我做什么",
    "能帮我干嘛",
    "能帮我干啥",
    "会干嘛",
    "会做什么",
    "都会干",
    "你会干",
)
HOW_WORDS: tuple[str, ...] = (
    "要怎么发",
    "怎么发",
    "咋发",
    "咋用",
    "怎么弄",
    "怎么搞",
    "怎么设",
    "怎么用",
    "怎么记",
    "要怎么设置",
    "怎么设置",
    "该怎么记",
    "该怎么设",
    "要怎么弄",
    "要怎么记",
    "如何设置",
    "如何记",
    "咋弄",
    "咋搞",
    "这功能咋用",
    "功能咋用",
    "咋设置",
    "咋整",
    "应该怎么记",
    "应该怎么设置",
    "应该怎么用",
    "该怎么写",
    "怎么写",
    "怎么加",
)
NAG_ANSWERS: tuple[str, ...] = (
    "知道了",
    "收到了",
    "收到",
    "晓得了",
    "明白了",
    "知道",
    "晓得",
    "明白",
    "收到收到",
)
INTERJECTIONS: tuple[str, ...] = (
    "好嘞",
    "好的",
    "好",
    "嗯嗯",
    "嗯",
    "ok",
    "okay",
    "行",
    "哦",
    "收到",
)
SNOOZE_PHRASES: tuple[str, ...] = (
    "等一下再喝",
    "等下再喝",
    "一会儿再喝",
    "晚一点再喝",
    "晚点喝",
    "等会喝",
    "一会喝",
    "待会喝",
    "晚点再喝",
    "等会再喝",
    "等会儿再喝",
    "待会再喝",
    "待会儿喝",
    "一会再喝",
    "一会儿再喝",
    "等下再喝",
    "稍后再喝",
    "稍后喝",
)
CHANNEL_TARGETS = {
    "企业微信": "wecom_app", "企微": "wecom_app", "个人微信": "wechat", "微信": "wechat",
    "wxpusher": "wxpusher", "server酱": "serverchan_user", "serverchan": "serverchan_user",
    "方糖": "serverchan_user",
}  # fmt: skip
"""Where reminders can go, by the names people use (longest first when read)."""
CHANNEL_CUES: tuple[str, ...] = (
    "通过",
    "收提醒",
    "接收提醒",
    "收消息",
    "渠道",
    "通道",
    "提醒走",
    "主要走",
    "优先走",
    "默认走",
    "消息走",
    "通知走",
    "都走",
    "改走",
    "还是走",
    "提醒发",
    "提醒都发",
    "消息发",
    "发到",
    "发我",
    "推到",
    "推送到",
    "改回",
    "换成",
    "改成",
    "还是用",
    "换回",
    "还是发",
    "改发",
    "就发",
    "统一发",
)
UNBIND_WORDS = ("解绑", "不绑", "解除绑定", "取消绑定", "unbind")
FALLBACK_CUES = ("备用", "备选", "后备")
STATE_VERBS: dict[str, str] = {
    "明天再说": "postpone",
    "明天再弄": "postpone",
    "明天再做": "postpone",
    "推到明天": "postpone",
    "改到明天": "postpone",
    "挪到明天": "postpone",
    "取消掉": "cancel",
    "取消": "cancel",
    "不做了": "cancel",
    "不做": "cancel",
    "删掉": "cancel",
    "删了": "cancel",
    "完成": "done",
    "搞定": "done",
    "做完": "done",
    "弄完": "done",
    "done": "done",
    "ok": "done",
    "不用做了": "cancel",
    "不用做": "cancel",
    "不用了": "cancel",
    "做完了": "done",
    "搞定了": "done",
    "放到明天": "postpone",
    "先放到明天": "postpone",
    "不用弄了": "cancel",
    "不用弄": "cancel",
    "明天再整": "postpone",
    "明天再搞": "postpone",
    "改明天": "postpone",
    "先放放": "postpone",
    "挪明天": "postpone",
    "改天": "postpone",
    "删": "cancel",
    "删除": "cancel",
    "不用": "cancel",
    "不要了": "cancel",
    "推明天": "postpone",
    "挪到明天去": "postpone",
    "放放": "postpone",
}
STATE_VERBS |= {
    "明天再" + verb: "postpone"
    for verb in ("说", "弄", "做", "搞", "整", "算", "办", "处理", "看")
    if "明天再" + verb not in STATE_VERBS
}
"""`第二个待办明天再算`: put off to tomorrow, composed."""
STATE_VERBS |= {
    no + verb + end: "cancel"
    for no in ("不", "不用", "不必", "别")
    for verb in ("做", "弄", "搞", "干", "办")
    for end in ("", "了")
    if no + verb + end not in STATE_VERBS
}
"""`待办4不弄了`, `不必办了`: not doing it any more, composed (a task dropped)."""
STATE_VERBS |= {f"{verb}明天": "postpone" for verb in MOVE_VERBS if verb != "改成"}
STATE_VERBS |= dict.fromkeys(("无法完成", "完成不了", "做不完", "弄不完", "顺延"), "postpone")
"""`待办1今日无法完成，请顺延至明日`: not done today, put off (never done)."""
"""Any move verb to 明天 puts a task off (`待办二推迟到明天`)."""
"""What a numbered task's state words do (`待办2明天再弄`, `2号任务取消掉`)."""
GIVE_WORDS: tuple[str, ...] = (
    "发送",
    "来份",
    "来一份",
    "来一个",
    "给我",
    "发我",
    "发一下",
    "来个",
    "要个",
    "生成",
    "发个",
    "我要",
    "给个",
    "给一个",
    "发下",
    "想在",
    "发送",
)
"""Asking to be given something (`给我发个周报`, `来个总结`)."""
EVENT_NOUNS: tuple[str, ...] = (
    "日程",
    "会议",
    "开会",
    "会",
    "约会",
    "聚会",
    "面试",
    "复诊",
    "预约",
    "饭局",
    "活动",
    "聚餐",
    "年会",
    "婚礼",
    "演唱会",
    "讲座",
    "培训",
    "家长会",
)
"""The event a message names (`明天的会取消了`: 会), when no title is said before it."""
EVENT_TITLE_WORDS = ("会", "日程", "约", "聚", "面试", "课", "复诊", "检查", "体检", "饭局", "活动")
"""Words inside a title that make it an event's (`复诊推迟到明天`), not a task put off
to tomorrow (`修空调改到明天吧`)."""
REMINDER_NOUNS = ("提醒", "闹钟")
"""What a reminder is called when one is named (`吃药那个提醒删了`)."""
SNOOZE_CUES: tuple[str, ...] = (
    "过会儿",
    "过一会",
    "等会儿",
    "等会",
    "待会儿",
    "待会",
    "晚点",
    "一会儿",
    "等下",
    "稍后",
)
"""`喝水的过会儿再提醒我`: with a water word, the water card's 稍后."""
POLITE_FRAME_LEADS: tuple[str, ...] = (
    "请问一下",
    "请问",
    "麻烦你",
    "麻烦您",
    "麻烦",
    "劳驾",
    "请你",
    "请您",
    "请帮我",
    "帮帮我",
    "你好",
    "您好",
    "我想问一下",
    "想问一下",
    "能不能",
    "可不可以",
)
"""Politeness before a request (`麻烦帮我加个待办，…`): dropped before reading."""
POLITE_FRAME_TAILS: tuple[str, ...] = (
    "麻烦帮我记一下好吗",
    "帮我记一下好吗",
    "帮我记一下吧",
    "帮我记一下",
    "帮我记下",
    "帮我记上",
    "麻烦记一下",
    "记一下好吗",
    "记一下吧",
    "记一下",
    "记上",
    "记下来",
    "千万别忘了",
    "别忘记了",
    "别忘了",
    "记得哦",
    "这样记对吗",
    "这样写对吗",
    "这样对不对",
    "这样对吗",
    "是这样吗",
    "对不对",
    "对吗",
    "好吗",
    "行吗",
    "可以吗",
    "谢谢啦",
    "谢谢你",
    "谢谢您",
    "谢谢您了",
    "麻烦您了",
    "谢谢",
    "多谢",
    "麻烦了",
    "辛苦了",
    "记一笔",
    "帮我记一笔",
    "plz",
    "pls",
    "please",
    "thx",
    "thanks",
    "fast",
    "quick",
    "asap",
    "这玩意儿",
    "这玩意",
)
"""Politeness (or hurry, or a pointing `这玩意`) after a request (`…，麻烦帮我记一下好吗`, `喝水 +2 谢谢啦`)."""
IMPORTANT_SUBJECTS = ("这个事", "这件事", "这事儿", "这事", "这个")
IMPORTANT_DEGREES = ("非常", "特别", "超级", "十分", "很", "挺")
IMPORTANT_PHRASES = ("一定要提醒我", "一定要提醒", "千万别忘了", "千万别忘")
"""Said of a reminder anywhere in the message, it is important (at least once):
`这个很重要`, `非常重要`, `这个重要`, `一定要提醒` (`很重要的会` names the thing)."""
AMOUNT_FOLLOWERS: tuple[str, ...] = (
    "吃",
    "买",
    "打",
    "交",
    "付",
    "充",
    "请",
    "坐",
    "看",
)
"""A verb right after an amount (`花了三十五吃了顿麻辣烫`) still ends it."""
MISTAKE_VERBS = ("说", "记", "发", "写", "搞", "弄", "按", "点", "输", "整", "打", "填")
"""`打错了`, `输错了`: a verb, then 错, says the last thing was a mistake."""
STRONG_UNDO: tuple[str, ...] = (
    "回退",
    "撤销",
    "撤回",
    "撤掉",
    "记重复了",
    "记重了",
    "重复记了",
    *(verb + "错" for verb in MISTAKE_VERBS),
)
UNDO_FILLER: tuple[str, ...] = (
    "不要记",
    "别记",
    "哎呀",
    "哎",
    "一下",
    "刚才",
    "刚刚",
    "不对",
    "了",
    "吧",
    "啊",
    "的",
    "那个",
    "撤",
    "手滑",
    "抱歉",
    "不好意思",
    "那笔",
    "这笔",
    "那条",
    "这条",
    "不算",
    "体重",
    "喝水",
    "记账",
    "sorry",
    "请",
    "输入有误",
    "有误",
    "弄错了",
    "搞错了",
)
"""`记错了 撤销一下`, `哎呀发错了 撤回撤回`, `抱歉，刚才输入有误，请撤销`: nothing but
undo words is an undo."""
TRAILING_WORDS = ("ok", "okk", "okay", "get")
"""A word said after a space at the end that adds nothing once 了 said it happened
(`高数作业交了 ok`); `交材料 ok` keeps it (there ok is the done word)."""
WATER_CHECK_WORDS: tuple[str, ...] = (
    "打卡",
    "签到",
    "一杯",
    "一次",
    "✅",
    "再来一杯",
    "再来一杯水",
    "来一杯",
    "来一杯水",
)
"""`喝水打卡`: the keyword 喝水 with one of these is one glass."""
WATER_COUNT_LEADS = (*WATER_CHECK_WORDS, "记录", "记一下")
"""Said between 喝水 and a count (`饮水记录 +2`); `喝水记录` alone may ask for a view."""
PRICE_UNITS = (
    "公斤", "平米", "平方", "斤", "个", "只", "瓶", "盒", "袋", "箱", "件", "条", "根",
    "张", "份", "克", "两", "度", "升", "平", "晚", "杯", "碗", "串", "把", "双", "小时",
    "次", "公里",
)  # fmt: skip
"""Units of a price per unit (`五块八一斤`, `一斤12块`, `30元/个`): a remark about a
price, asked at most, never recorded."""
PAY_VERBS = ("交", "缴", "付", "充")
"""One-character verbs that pay a bill: dropped from a note (`交电费` is 电费)."""
GIFT_VERBS = ("送了", "送给", "随了", "包了", "包个")
GIFT_AFTER_OF = "的礼"
"""`随了300的礼`: after a gift verb and the amount, the gift itself."""
"""Giving a thing or money as a gift: 人情, whatever was given (`去亲家那送了两瓶酒`)."""
REMINDER_LEADS = (
    "帮我设个提醒",
    "帮我设一个提醒",
    "设个提醒",
    "设一个提醒",
    "定个提醒",
    "加个提醒",
    "建个提醒",
    "请设置提醒",
    "帮我设置提醒",
    "设置提醒",
    "设置一个提醒",
    "添加提醒",
    "请添加提醒",
)
"""`帮我设个提醒每天中午…提醒我…`: a lead that only says a reminder follows."""
TYPO_PAIRS = {"明天在说": "明天再说", "在来一": "再来一", "在记一": "再记一", "在提醒": "再提醒"}
TYPO_PAIRS |= {"明添": "明天", "今添": "今天", "以经": "已经", "已近": "已经", "后儿个": "后天 "}
TYPO_PAIRS |= {"->": "  ", "=>": "  ", "→": " "}
"""An arrow between words (`电影票 -> 45`, `日程2 -> 周四 14:00`) only separates them."""
CLAUSE_CUES = (
    "因为", "所以", "不然", "否则", "免得", "省得", "以免", "到时候", "大概", "可能", "要", "得",
    "会", "说", "是", "了", "就", "让", "别", "不", "没", "我", "他", "她", "们", "着", "呢",
)  # fmt: skip
"""Words that make a clause a sentence of its own (`体育课要用`, `晚了就没名额了`): said
after a comma behind a request, such a clause only comments on it."""
"""Homophones an input method gives (在 for 再): same length, fixed before reading."""
PLEASE_BEFORE = (
    "帮", "把", "提醒", "给我", "将", "解除", "撤", "取消", "删", "设置", "记", "告诉", "发", "再",
    "开", "关", "停", "暂停", "恢复", "看", "查", "显示", "列", "导出", "你", "您", "在",
)  # fmt: skip
"""Inside a request, a 请 before one of these is politeness (`…，请帮我记到待办`)."""
PLEASE_NOT_AFTER = "申邀宴回敬聘"
"""A 请 after one of these is part of a word (`申请`, `邀请`)."""
QUIET_ASK_STARTS = ("别", "不要")
"""Where the asking starts after `到 <time>` (`现在到下午两点别打扰我`)."""
POLITE_PLEASE_KEEPS = ("请假", "请客", "请教", "请吃", "请人", "请求", "请柬", "请帖")
"""Words that start with 请 and are not a polite 请 (`请假 3天`)."""
FEATURE_QUESTION_MARKERS: tuple[str, ...] = (
    "有没有",
    "能不能",
    "可不可以",
    "可以",
    "功能",
    "支持",
    "能",
    "会不会",
    "行不行",
)
"""A question about whether a feature exists, said before the request itself."""
DISMISS_WORDS = (
    "不是",
    "算了算了", "算了", "不记了", "不用了", "不要了", "别记了", "不记", "别记", "不用记了", "不用记",
    "不要记了", "不要记", "先不记了", "先不记", "不用",
)  # fmt: skip
"""`算了算了 不记了`: nothing but these is a no."""
SPOKEN_FILLERS: tuple[str, ...] = (
    "哎呀妈呀",
    "家人们",
    "姐妹们",
    "兄弟们",
    "宝子们",
    "嗯就是",
    "哦对了",
    "对了",
    "嗯嗯",
    "嗯",
    "呃",
    "额",
    "就是",
    "那个",
    "要得",
    "好嘞",
    "好吧",
    "行",
)
"""Spoken fillers before a request (`嗯就是…明天8点提醒我…`, `对了，周四…`): dropped
when a pause (…, a comma, a space) or another filler follows them, or when they are
an interjection (`嗯那个给儿子交了…`)."""
FILLER_SOUNDS = ("嗯嗯", "嗯", "呃", "额", "呵", "哈", "唉", "哎", "嘿", "啧", "哼")
"""Sounds said alone between words (`体重 七十点五 又胖了 呵`): a pause, not a character
typed apart."""
QUESTION_PREFIXES: dict[str, str] = {
    "加待办": "加待办",
    "加个待办": "加待办",
    "加日程": "加日程",
    "加个日程": "加日程",
    "记日程": "加日程",
    "记账": "记账",
    "记体重": "体重",
    "设预算": "预算",
    "预算": "预算",
    "记日记": "日记",
    "撤销": "撤销",
    "记喝水": "喝水",
    "导出": "导出",
}
"""A command named in a question about it (`能加待办吗？月底前交年度总结`): kept before
the request that follows the question."""
DIALECT = {
    "明儿个": "明天 ", "今儿个": "今天 ", "明儿": "明天", "今儿": "今天", "唔该": "麻烦",
    "等一哈": "等一下", "停一哈": "停一下", "试一哈": "试一下", "咋个": "怎么", "莫吵": "别吵",
    "莫催": "别催", "莫烦": "别烦", "头晌": "上午",
    "唔好": "不要", "啱啱": "刚刚", "搞掂": "搞定", "记低": "记下", "看一哈": "看一下",
    "我系": "我是", "啥子": "什么", "饮咗": "喝了", "咗": "了", "唔": "不", "佢": " ",
    "俺": "我", "晌午": "中午", "后晌": "下午", "前晌": "上午", "饮水": "喝水", "甭": "别",
    "完啦": "完了", "好啦": "好了",
    # Cantonese typed in Mandarin (听日 for 明天, 下昼 for 下午, 睇 for 看 ...)
    "听日": "明天", "琴日": "昨天", "下昼": "下午", "朝早": "早上",
    "晏昼": "中午", "今个": "这个", "呢个": "这个", "嗰个": "那个",
    "唔使": "不用", "唔要": "不要", "点样": "怎样", "点呀": "怎样", "几多": "多少",
    "使咗": "花了", "最多使": "最多花", "系咩": "是啥", "咩": "啥", "嘅": "的", "畀": "给",
    "利是": "红包", "食咗": "吃了", "食饭": "吃饭", "开返": "打开", "睇": "看", "搵": "找",
    "我啲": "我的", "记数": "记账", "晚啲": "晚点", "早啲": "早点", "快啲": "快点", "喇": "啦",
    "个钟头": "个钟头", "个钟": "小时",
}  # fmt: skip
"""Regional words and their Mandarin, each the same length (the journal keeps what was
typed, and an index into the normalised text must stay an index into it)."""
ENGLISH_WORDS = {
    "cancel": "取消", "today": "今天", "week": "本周", "month": "本月", "task": "任务",
    "done": "完成", "taxi": "打车", "goal": "目标", "water": "喝水", "budget": "预算",
    "undo": "撤销", "help": "帮助", "list": "看看", "show": "看看", "status": "状态",
    "admin": "管理", "snooze": "稍后", "commission": "约稿", "test": "测试", "this month": "本月", "this week": "本周",
}  # fmt: skip
"""English command words typed as whole words (`cancel 4`, `today`), read as their Chinese
(padded with spaces to the same length)."""
DIALECT_BEFORE_TIME = {"夜晚": "晚上"}
"""Words that mean a period only before a time (`每日夜晚十点`; `平安夜晚餐` is a meal)."""
CORRECTION_WORDS = ("哦不对", "不对不对", "不对是", "哦不是", "哦不", "不对", "不是")
"""`外卖 三十五 哦不对 是三十九`: what follows replaces the value said just before."""
WATER_NOT_NOW = (
    "每天",
    "一天",
    "每日",
    "目标",
    "要喝",
    "应该",
    "得喝",
    "如果",
    "要是",
    "假如",
    "网上",
    "听说",
)
"""Glasses in a sentence about a goal, a habit or a hypothesis: no check-in."""

# --- nag clauses (`…，一直提醒到我回复`) ---
NAG_REPEAT_WORDS = ("一直", "反复", "继续", "不停地", "不停", "持续", "不断", "不断地", "再三")
NAG_VERBS = ("提醒", "催", "叫", "喊", "通知")
NAG_WHEN_WORDS = ("到点了", "到点", "到时间了", "到时间", "到时候", "时间到了")
NAG_REPLY_WORDS = ("回复", "回", "说", "确认", "答应", "点")
NAG_ANSWER_WORDS = ("完成", "收到", "做完", "搞定", "弄完", "好的", "知道了", "办完", "好了")
NAG_UNDONE_VERBS = (
    "回复", "回", "说", "答应", "确认", "弄完", "做完", "搞定", "办完", "完成", "回我",
    "回复我",
)  # fmt: skip
"""The words of a nag clause; `handlers.parse.nag` composes them (`没回复收到就一直提醒`,
`直到我说完成`, `一直提醒到我回复`)."""

# --- a task named by its thing (`报表那件事不用做了`) ---
THING_NAMERS = (
    "那件事儿", "那件事", "那事儿", "那个事", "这件事", "这事儿", "的事儿", "的事情", "的事",
    "那个待办", "那条待办", "这个待办", "这条待办", "的待办", "的todo", "那个todo", "那个任务",
    "的任务", "的那个", "那个",
)  # fmt: skip
MAY_WORDS = ("就可以", "可以", "能")
"""`那个待办可以划掉了`: may, before what happens to the task (dropped)."""
CALLED_OFF_WORDS = ("取消", "不去", "黄了", "不办", "不做", "不要", "推迟", "改期")
"""`会议取消了，那个待办删了`: a clause that calls the thing off, not one that did it."""
CLAUSE_THING_DROPS = ("今天", "已经", "刚刚", "刚才", "都", "也")
"""`春游钱今天已经交了，那个待办…`: when and already, no part of the thing."""
"""Words after a task's thing that name it (`给老王回电话那事儿打完了`): the thing
before them is the task's title, the words after say what happened to it."""

NOT_REMARK_TAILS = (
    "磅", "lb", "公斤", "kg", "斤", "千克", "杯", "块", "元", "分钟", "小时", "点", "号",
    "日", "周", "月", "直到", "每", "提前", "重要", "完成", "收到", "取消", "删", "暂停",
)  # fmt: skip
"""Words that make a last word part of the command, not a remark after it
(`体重 72.4 磅`, `… 直到完成`): such a message is never read without it."""

LOOK_LEADS = (
    "我的",
    "显示",
    "查看",
    "查询",
    "看看",
    "看下",
    "看一下",
    "查一下",
    "查下",
    "给我看",
    "给我看看",
    "列出",
)
"""Look words before a command said alone (`显示管理状态`, `查看待办`)."""
HELP_TOPIC_FILLERS = (
    "这个功能", "那个功能", "的功能", "这功能", "功能", "那个", "这个", "这", "应该", "要",
    "该", "的", "到底", "具体", "的话", "啊", "呀", "呢", "吧", "是",
)  # fmt: skip
"""Words after a help topic before 怎么用 (`喝水的那个怎么用`): not the topic."""
VAGUE_PERIODS = (
    "下周", "下星期", "下礼拜", "这周", "本周", "这几天", "过几天", "改天",
    "下个月", "这个月", "月初", "最近", "回头",
)  # fmt: skip
"""Spans too vague for a due day (`下周要交年终总结`): a task asked about, no day."""
THING_WEIGHT = "重量"
"""`行李箱重量23kg`: a thing's weight (a remark), unless it is 体重量了一下."""
NOT_A_NUMBER_AFTER = (
    "半", "些", "下", "起", "样", "直", "共", "定", "般", "切", "边", "口气", "会儿", "阵",
    "顿", "趟", "遍",
)  # fmt: skip
"""What follows a Chinese numeral that is a word, not an amount (`先发了一半`, `一起`)."""
MONEY_ENDINGS = ("钱", "费", "款", "金")
"""A word ending in one of these names money: a Chinese numeral glued after it is the
amount (`兴趣班的钱一千五`), not part of a name."""
DONE_ENDINGS = ("过去", "出去", "上去", "完了", "好了", "完", "好", "掉")
"""What ends any verb that finished a thing (`报价单发过去了`, `巡检记录更新完了`): the
thing before it names the task."""
WORK_VERBS = (
    "发", "更新", "写", "改", "填", "签", "回", "打", "整理", "处理", "准备", "提交", "上传",
    "打印", "复印", "报", "审", "批", "录", "算", "核对", "预约", "订", "退", "换", "装", "搬",
    "收拾", "打扫", "清理", "做", "弄", "搞", "办", "修", "洗", "看", "读", "背", "练", "跑",
    "寄", "交", "还", "取", "拿", "买", "付", "缴", "剪", "充", "续", "问", "联系", "通知",
    "开",
)  # fmt: skip
"""Verbs a task is finished with (`报价单发过去了`, `巡检记录更新完了`)."""
NAG_ANSWER_TAILS = (
    "别催了", "不用催了", "别催", "别再提醒了", "别再提醒", "不用再提醒了", "不用再提醒", "谢谢提醒", "谢谢", "多谢", "马上去", "这就去",
    "马上", "就去", "在弄了", "在路上",
)  # fmt: skip
"""What may follow a nag's answer and say nothing more (`收到了，谢谢提醒`, `知道了 马上去`)."""
NAG_STOP_TAILS = (
    "别催了", "不用催了", "别催", "别再催了", "别再提醒了", "别再提醒", "不用再提醒了", "不用再提醒",
)  # fmt: skip
"""Of those, the ones that answer a nag on their own (`好的好的别催了`)."""
REVIEW_ONLY_WORDS = ("复盘", "周复盘", "回顾", "周回顾")
"""Said with this week, these ask for the weekly review (`这周复盘`); `本周总结` is the
week's view."""
UPCOMING_WORDS = ("最近", "近期", "接下来", "之后", "这几天", "未来几天", "往后")
"""`最近的日程`: the coming days, said before a list: that list."""
WHEN_ASKED = (
    "是哪天", "哪天来着", "是几号", "几号来着", "是什么时候", "什么时候来着", "几点来着", "是几点",
)  # fmt: skip
"""`宝宝体检是哪天来着`: when a thing is, asked: the events list answers it."""
ENOUGH_TAILS = ("就行了", "就行", "就好", "就可以了", "就可以", "即可")
"""`…提前15分钟提醒我就行`: said after a request, adds nothing."""
NAG_STOP_ANSWER = "收到"
"""The answer word a nag is stopped with when no answer word was said."""
ANSWER_LE_PARTICLES = ("啦", "喽", "咯", "啰")
"""Spoken for 了 at an answer's end (`知道啦`, `收到喽`)."""
HOW_ASKS = ("应该怎么", "要怎么", "该怎么", "怎么", "怎样", "如何", "咋")
HOW_DOINGS = (
    "设置", "记录", "记", "用", "弄", "设", "写", "加", "发", "搞", "整", "操作", "使用", "添加",
)  # fmt: skip
"""A how-to question is one of HOW_ASKS, then one of HOW_DOINGS (`怎样记录体重`)."""
UNDO_LAST = ("刚才", "刚刚", "刚", "最后")
UNDO_PIECES = ("条", "笔", "步")
UNDO_NOT_WITH = ("待办", "任务", "todo", "日程", "日历", "提醒", "预算")
"""With one of these named, `最后一条`/`刚才那条` points into that list, not at the
last record (`最后一条提醒删掉` is no 撤销)."""
"""`刚才那一笔`, `上一条`, `最后一笔`: the last record named by when and its piece."""
THANKS_WORDS = (
    "谢了", "谢谢", "多谢", "谢啦", "感谢", "thanks", "thx", "好的谢谢", "ok谢谢", "谢谢你", "谢谢啦",
    "好的 谢谢", "好的,谢谢", "辛苦了", "ok 谢谢",
)  # fmt: skip
"""Thanks said alone: nothing to do (a question waiting is dropped)."""
ML_PER_GLASS = 250
"""A glass of water in millilitres (`喝了500ml水`: two glasses, asked)."""
WEEKENDS_OFF = ("除了周末", "周末除外", "周末不用", "周末不要", "周末休息", "双休日除外", "除周末")
"""A daily reminder with these is one on working days (`每天八点…，除了周末`)."""
MY_PEOPLE = (
    "妈", "爸", "老婆", "老公", "媳妇", "儿子", "女儿", "哥", "姐", "弟", "妹", "爷", "奶",
    "外公", "外婆", "家", "们", "朋友", "同事", "老师", "对象", "男朋友", "女朋友", "闺女",
)  # fmt: skip
"""The user's people: `转给我妈` sends money to them (out), unlike `转给我` (in)."""
AMOUNT_LEADS = (
    "一共", "总共", "合计", "共计", "控制在", "不超过", "最多", "扣了", "花掉", "花了", "付了", "交了",
)  # fmt: skip
"""Words right before an amount in Chinese numerals (`一共一百二十六`, `控制在五百以内`)."""
LIMIT_ENDS = ("以内", "之内", "以下", "封顶")
"""Words right after a limit's amount (`控制在五百以内`)."""
ONE_CHAR_MEASURES = "杯个份瓶张件双盒袋箱本支碗桶罐包条只台部套副根颗片把辆束"
"""A measure word left at the start of a note (`杯奶茶`) counted its thing: dropped."""
NOTE_TIME_WORDS = (
    "这个月", "本月", "这月", "今天的", "今天", "今早", "今晚", "刚才", "刚刚", "中午", "早上",
    "晚上", "下午", "上午",
)  # fmt: skip
"""When a record was made, said among its item words (`房贷这个月扣了…`): not the note."""
WATER_MISSED = ("少记了", "漏记了", "忘记了", "忘了记", "补上", "补记")
"""Glasses that were not checked in (`少记了两杯，补上`): added now."""
WATER_OVERCOUNTED = ("多记了", "记多了", "多打了", "多点了")
"""Glasses checked in by mistake (`喝水多记了一杯，减掉`): taken off."""
ABOUT_AFTER = ("多", "来块", "来", "左右", "出头", "上下", "几")
"""After an amount, it was about that much (`花了1200多`): asked, never recorded."""
SPAN_UNITS = ("个多月", "个月", "多月", "岁", "年", "天", "周", "个星期", "星期", "小时", "分钟")
"""A Chinese numeral before these counts time or age (`生完宝宝三个月了`), never a weight."""
VIEW_FILLER_WORDS = (
    "我的", "我", "的", "了", "都", "一下", "总共", "一共", "过得", "整体", "到底", "花了", "记了", "喝了", "做了", "有",
    "样", "咋", "么", "个", "杯", "总结", "汇总", "概况", "体重", "呢", "回顾", "给", "一", "下", "看", "些", "啥",
    "一年", "情况", "干了", "干", "哪", "俺", "来个", "过的", "记录", "哪儿", "的汇总", "来着", "记了没", "表", "用了",
    "好多", "嘛", "数据", "一整年", "整年", "把", "帮我", "请", "recap", "summary", "overview", "和", "跟", "到现在", "目前",
    "截至", "为止", "现在", "到", "变化", "趋势", "在", "上", "赚", "挣", "来一个", "来份", "来一份", "说说", "讲讲", "你",
    "接下来", "最近", "近期", "还", "要", "事", "什么事", "要办", "忙", "进账", "入账", "收入",
    "事情", "说一下", "要做", "进了", "出了", "要开", "总体", "全年", "能", "可以", "总的", "瘦了",
    "胖了", "轻了", "重了", "进出", "收支", "钱", "没", "降了", "涨了", "掉了", "东西", "我们", "又",
    "发送",
    "支出", "各", "卖了", "卖", "清单", "列表", "事项", "尚未完成", "未完成",
)  # fmt: skip
"""Words around a view asked in a sentence (`今天我都干了些什么你给我说说`): with the span,
question, look and noun words, nothing else may be said for the message to be that view."""
GOAL_WORD = "目标"
"""A goal said with a volume (`喝水目标 2000ml`): the daily glasses, not a check-in."""
PAID_ALREADY = ("已转", "已付", "已交", "已缴", "已经转", "已经付", "已经交", "已经缴")
"""`房租2800已转房东`: paid, said right after the amount, whoever it went to."""
PAID_AFTER = (
    "交了",
    "交",
    "付了",
    "付",
    "充了",
    "充",
    "转过去",
    "转了过去",
    "打过去",
    "花了",
    "花掉",
)
"""Said right after an amount, money moved (`保育费一千八交了`, `两千转过去了`)."""
RECEIVED_VERBS = ("收了", "收到", "到账", "进账", "入账", "一共收了", "共收了")
"""Said right before an amount, the money came in, whatever item is named (`份子钱
点完了 一共收了32600`)."""
MEAL_SUFFIX = "餐"
"""A word with 餐 names a meal (`值班餐`, `病号餐`): 餐饮 when no other word says more."""
TRADE_VERBS = ("卖", "买", "进了", "进货", "收购", "运", "拉了", "摘了", "批了", "订了")
"""Before a weight with its goods after it (`卖了三百斤白菜`), the weight is goods."""
TWO_WAY_MONEY = ("定金", "订金", "押金", "尾款")
"""Money that goes either way: with an item bought named (`婚纱定金 2000`), asked."""
ORGANIZATIONS = ("公司", "单位", "学校", "银行", "医院", "物业", "平台", "车队", "社区")
"""Money handed to one of these is no gift (`份子钱交给公司了`): its category, or 其他."""
